import { FINISHED_TURN_BUSY_REASON, FINISHED_TURN_TERMINAL_REASON, type InteractionRecord } from '../../lib/contracts';
import { type ScriptedRemote } from '../../lib/runtime/test-support/scripted-remote';
import { expect, test } from './support/fixtures';
import { textOf, type ScriptedItem, type ScriptedModel } from './support/model-server';
import { forAgentWork } from '../support/agent-wait';

// Finished turns of the real Codex TUI through `askaway codex` (R19.20–R19.26): each turn's end is a card on a
// scripted phone, a reply from there is the thread's next prompt, the terminal still answers first.

/** The finished-turn card whose message holds `text`. */
function turnCard(remote: ScriptedRemote, text: string): Promise<InteractionRecord> {
  return remote.next(
    (record) =>
      record.kind === 'finished-turn' && record.agent?.kind === 'codex' && (record.input.message ?? '').includes(text),
    forAgentWork(),
  );
}

/** The last user message of the model's last call that carried `marker`: what the model read as the prompt. */
function promptRead(model: ScriptedModel, marker: string): string | undefined {
  for (const { body } of [...model.requests].reverse()) {
    const users = body.input.filter((item) => item.type === 'message' && item.role === 'user');
    const last = users.at(-1);
    if (last && textOf(last.content).includes(marker)) return textOf(last.content);
  }
  return undefined;
}

/** A promise the test settles: the model's answer held back while its turn runs. */
function held() {
  let release: (items: ScriptedItem[]) => void = () => undefined;
  const answer = new Promise<ScriptedItem[]>((resolve) => {
    release = resolve;
  });
  return { answer, release };
}

test('[R19.20][R19.21][R19.22][R19.23][R19.24] Codex: a finished turn on the phone, the reply as the next prompt, the terminal first, a late reply refused, an interrupted and a failed turn', async ({
  session,
  remote,
  phone,
}) => {
  const first = 'E2E-FT-first';
  const reply = 'E2E-FT-reply: now make it red, keep the tests';
  const typed = 'E2E-FT-typed';
  const late = 'E2E-FT-late: this must never reach the model';
  const waited = 'E2E-FT-waited';
  const failing = 'E2E-FT-failing';
  const typedTurn = held();
  const waitedTurn = held();
  const codex = await session({
    conversations: [
      { marker: first, turns: [[{ type: 'text', text: 'TURN-DONE-1: the widget is blue.\nSay what next.' }]] },
      { marker: 'E2E-FT-reply', turns: [[{ type: 'text', text: 'TURN-DONE-2: red it is.' }]] },
      { marker: typed, turns: [() => typedTurn.answer] },
      { marker: 'E2E-FT-late', turns: [[{ type: 'text', text: 'the late reply got through' }]] },
      {
        marker: waited,
        // It says something, runs a command, and its next call is held: the turn still runs.
        turns: [
          [
            { type: 'text', text: 'TURN-DONE-partial' },
            { type: 'function_call', name: 'exec_command', arguments: { cmd: 'echo partial' } },
          ],
          () => waitedTurn.answer,
        ],
      },
      { marker: failing, turns: [[{ type: 'fail', message: 'E2E model refused' }]] },
    ],
  });
  const bridge = await codex.bridge();
  const tui = await codex.tui();
  await tui.ready();

  const firstCard = await test.step('the turn ends: its card shows what Codex said last', async () => {
    await tui.submit(`${first}: paint the widget`);
    await tui.waitFor(/TURN-DONE-1/);
    const card = await turnCard(remote, 'TURN-DONE-1');
    expect(card).toMatchObject({
      kind: 'finished-turn',
      toolName: 'finished-turn',
      agent: { kind: 'codex', name: 'Codex' },
      origin: { kind: 'root' },
      input: { status: 'completed', message: 'TURN-DONE-1: the widget is blue.\nSay what next.', reply: 'prompt' },
      context: { cwd: codex.home.workDir },
    });
    expect(card.requestId).toBe(`turn:${card.sessionId ?? ''}:${card.origin?.turnId ?? ''}`);
    return card;
  });

  const secondCard =
    await test.step('a reply in the PWA is the next prompt: the model reads exactly it, the TUI shows it', async () => {
      const card = await phone.openCard(firstCard.requestId);
      const page = phone.page;
      await expect(page.getByTestId('turn.status')).toHaveText(/Finished/);
      await expect(page.getByTestId('turn.message')).toContainText('TURN-DONE-1: the widget is blue.');
      await page.getByTestId('turn.reply').fill(reply);
      await page.getByTestId('turn.send').click();
      await expect(card.receipt).toBeVisible();
      await expect(page.getByTestId('card.receipt-status')).toContainText('Sent to Codex');
      await expect.poll(() => promptRead(codex.model, 'E2E-FT-reply'), { timeout: forAgentWork() }).toBe(reply);
      await tui.waitFor(new RegExp(`› ${reply}`));
      await tui.waitFor(/TURN-DONE-2/);
      const next = await turnCard(remote, 'TURN-DONE-2');
      expect(next.sessionId).toBe(firstCard.sessionId);
      expect(remote.withdrawn(firstCard.requestId)).toBeUndefined();
      return next;
    });

  await test.step('a prompt typed at the terminal first: the card leaves as answered in the terminal', async () => {
    await tui.submit(`${typed}: do it here`);
    await expect
      .poll(() => remote.withdrawn(secondCard.requestId), { timeout: forAgentWork() })
      .toEqual({ reason: FINISHED_TURN_TERMINAL_REASON, terminalAnswer: expect.anything() });
    typedTurn.release([{ type: 'text', text: 'TURN-DONE-3: typed at the desk.' }]);
  });

  await test.step('a phone reply that arrives while the terminal’s prompt runs is refused, never sent', async () => {
    const card = await turnCard(remote, 'TURN-DONE-3');
    // The bridge hears nothing for a moment: the reply wins on the host, and the person types meanwhile.
    bridge.pause();
    try {
      expect(await remote.respond(card.requestId, { action: 'accept', content: { reply: late } })).toMatchObject({
        ok: true,
      });
      await tui.submit(`${waited}: still at the desk`);
      await tui.waitFor(/TURN-DONE-partial/);
    } finally {
      bridge.resume();
    }
    // Whichever the bridge reads first (the phone's answer or Codex's new turn), the reply is not sent.
    await expect
      .poll(() => remote.withdrawn(card.requestId)?.reason, { timeout: forAgentWork() })
      .toMatch(new RegExp(`^(${FINISHED_TURN_BUSY_REASON}|${FINISHED_TURN_TERMINAL_REASON})$`));
    expect(codex.model.sawUserText('E2E-FT-late')).toBe(false);
  });

  await test.step('Esc interrupts the running turn: its card says interrupted, with what Codex had said', async () => {
    await tui.tmux.keys(['Escape']);
    await tui.waitFor(/Conversation interrupted/);
    const card = await remote.next(
      (record) => record.kind === 'finished-turn' && record.input.status === 'interrupted',
      forAgentWork(),
    );
    expect(card.input).toMatchObject({ status: 'interrupted', message: 'TURN-DONE-partial' });
    waitedTurn.release([{ type: 'text', text: 'too late' }]);
    expect(codex.model.sawUserText('E2E-FT-late')).toBe(false);
  });

  await test.step('a failed turn: its card says failed, with Codex’s error', async () => {
    await tui.submit(`${failing}: try`);
    await tui.waitFor(/E2E model refused/);
    const card = await remote.next(
      (record) => record.kind === 'finished-turn' && record.input.status === 'failed',
      forAgentWork(),
    );
    expect(card.input).toMatchObject({ status: 'failed', error: 'E2E model refused', reply: 'prompt' });
  });
});

test('[R19.20] Codex: a subagent’s finished turn shows nothing; the root’s turn that waited for it does', async ({
  session,
  remote,
}) => {
  const root = 'E2E-FT-root';
  const sub = 'E2E-FT-sub';
  const codex = await session({
    // Subagent tools (`collaboration.spawn_agent`, `wait_agent`) are offered to gpt-5.5 only with this feature in 0.171.
    tables: ['[features]', 'multi_agent_v2 = true'],
    conversations: [
      {
        marker: root,
        turns: [
          [
            {
              type: 'function_call',
              name: 'spawn_agent',
              namespace: 'collaboration',
              arguments: { task_name: 'helper', message: `${sub}: check the tests`, fork_turns: 'none' },
            },
          ],
          [
            {
              type: 'function_call',
              name: 'wait_agent',
              namespace: 'collaboration',
              arguments: { timeout_ms: 30_000 },
            },
          ],
          [{ type: 'text', text: 'ROOT-DONE: the helper checked the tests.' }],
        ],
      },
    ],
  });
  await codex.bridge();
  const tui = await codex.tui();
  await tui.ready();
  await tui.submit(`${root}: ask a helper`);
  const card = await turnCard(remote, 'ROOT-DONE');
  // The helper ran in a thread of its own (the scripted model answers it as a side call, "OK"), and its turn ended
  // before the root's did: without the bridge's subagent check, its card is on the phone too.
  expect(codex.model.requests.some((request) => request.threadSource === 'subagent')).toBe(true);
  expect(card.input).toMatchObject({ status: 'completed', message: 'ROOT-DONE: the helper checked the tests.' });
  const messages = remote
    .pending()
    .flatMap((record) => (record.kind === 'finished-turn' ? [record.input.message] : []));
  expect(messages).toEqual(['ROOT-DONE: the helper checked the tests.']);
});

test('[R19.20] Codex: turns Codex continues by itself for an active goal show nothing; the turn that completes the goal does', async ({
  session,
  remote,
}) => {
  const marker = 'E2E-FT-goal';
  const codex = await session({
    conversations: [
      {
        marker,
        turns: [
          [{ type: 'function_call', name: 'create_goal', arguments: { objective: 'Make the widget red' } }],
          [{ type: 'text', text: 'GOAL-STEP-1' }],
          // Codex starts this turn itself ("Continue working toward the active thread goal").
          [{ type: 'text', text: 'GOAL-STEP-2' }],
          [{ type: 'function_call', name: 'update_goal', arguments: { status: 'complete' } }],
          [{ type: 'text', text: 'GOAL-DONE: the widget is red.' }],
        ],
      },
    ],
  });
  const bridge = await codex.bridge();
  const tui = await codex.tui();
  await tui.ready();
  await tui.submit(`${marker}: work on it until done`);
  const card = await turnCard(remote, 'GOAL-DONE');
  expect(card.input).toMatchObject({ status: 'completed', message: 'GOAL-DONE: the widget is red.' });
  await tui.waitFor(/GOAL-STEP-2/);
  // No card came and went for the steps: none was replaced, none answered by Codex's own next turn.
  expect(bridge.output()).not.toMatch(/finished turn of thread \S+: (replaced|answered-in-terminal)/);
  const messages = remote
    .pending()
    .flatMap((record) => (record.kind === 'finished-turn' ? [record.input.message] : []));
  expect(messages).toEqual(['GOAL-DONE: the widget is red.']);
});
