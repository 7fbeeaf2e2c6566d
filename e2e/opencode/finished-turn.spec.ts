import path from 'node:path';
import { FINISHED_TURN_BUSY_REASON, FINISHED_TURN_TERMINAL_REASON, type InteractionRecord } from '../../lib/contracts';
import { type ScriptedRemote } from '../../lib/runtime/test-support/scripted-remote';
import { forAgentWork } from '../support/agent-wait';
import { withBridgePaused } from './support/bridge-process';
import { expect, test } from './support/fixtures';
import { textOf, type ScriptedBlock, type ScriptedModel } from './support/model-server';
import { newSession, waitForScreen } from './support/tui';

// Finished turns of the real OpenCode TUI through its plugin and `askaway opencode bridge` (R19.30–R19.35): each turn's
// end is a card on a scripted phone, a reply from there is the session's next prompt, the terminal still answers first.

/** The finished-turn card whose message holds `text`. */
function turnCard(remote: ScriptedRemote, text: string): Promise<InteractionRecord> {
  return remote.next(
    (record) =>
      record.kind === 'finished-turn' &&
      record.agent?.kind === 'opencode' &&
      (record.input.message ?? '').includes(text),
    forAgentWork(),
  );
}

/** The last user message of the model's last call that carried `marker`: what the model read as the prompt. */
function promptRead(model: ScriptedModel, marker: string): string | undefined {
  for (const { body } of [...model.requests].reverse()) {
    const last = body.messages.filter((message) => message.role === 'user').at(-1);
    if (last && textOf(last.content).includes(marker)) return textOf(last.content);
  }
  return undefined;
}

/** Whether any call to the model carried `text` in a user message. */
const modelSaw = (model: ScriptedModel, text: string) =>
  model.requests.some(({ body }) =>
    body.messages.some((message) => message.role === 'user' && textOf(message.content).includes(text)),
  );

/** A model answer the test holds back while its turn runs. */
function held() {
  let release: (blocks: ScriptedBlock[]) => void = () => undefined;
  const answer = new Promise<ScriptedBlock[]>((resolve) => {
    release = resolve;
  });
  return { answer, release };
}

test('[R19.30][R19.31][R19.32][R19.33][R19.34] OpenCode: a finished turn on the phone, the reply as the next prompt, the terminal first, a late reply refused, an interrupted turn', async ({
  opencode: _opencode,
  sharedTui,
  model,
  remote,
  phone,
}) => {
  const marker = 'E2E-FT-oc';
  const reply = 'E2E-FT-reply: now make it red, keep the tests';
  const typed = 'E2E-FT-typed: do it here';
  const late = 'E2E-FT-late: this must never reach the model';
  const waited = 'E2E-FT-waited: still at the desk';
  const typedTurn = held();
  const waitedTurn = held();
  const shared = await sharedTui();
  const { tmux, lab } = shared;
  model.add({
    marker,
    turns: [
      [{ type: 'text', text: 'TURN-DONE-1: the widget is blue.\nSay what next.' }],
      [{ type: 'text', text: 'TURN-DONE-2: red it is.' }],
      () => typedTurn.answer,
      // It says something and reads a file (no permission asked), and its next call is held: the turn still runs.
      [
        { type: 'text', text: 'TURN-DONE-partial' },
        {
          type: 'tool_call',
          id: 'call_ft_read',
          name: 'read',
          input: { filePath: path.join(lab.project, 'opencode.json') },
        },
      ],
      () => waitedTurn.answer,
    ],
  });

  const firstCard = await test.step('the turn ends: its card shows what OpenCode said last', async () => {
    await newSession(tmux, `${marker}: paint the widget`);
    await waitForScreen(tmux, /TURN-DONE-1/);
    const card = await turnCard(remote, 'TURN-DONE-1');
    expect(card).toMatchObject({
      kind: 'finished-turn',
      toolName: 'finished-turn',
      agent: { kind: 'opencode', name: 'OpenCode', version: '1.18.33' },
      origin: { kind: 'root' },
      input: { status: 'completed', message: 'TURN-DONE-1: the widget is blue.\nSay what next.', reply: 'prompt' },
      context: { cwd: lab.project, projectName: path.basename(lab.project) },
    });
    expect(card.sessionId).toMatch(/^ses_/);
    expect(card.requestId).toMatch(new RegExp(`^turn:${card.sessionId ?? ''}:msg_`));
    return card;
  });

  const secondCard =
    await test.step('a reply in the PWA is the next prompt: the model reads exactly it, the TUI shows it, the draft stays', async () => {
      // Half a prompt in the composer: the phone's reply leaves it there.
      await tmux.keys([typed], { literal: true });
      await waitForScreen(tmux, /E2E-FT-typed/);
      const card = await phone.openCard(firstCard.requestId);
      const page = phone.page;
      await expect(page.getByTestId('turn.status')).toHaveText(/Finished/);
      await expect(page.getByTestId('turn.message')).toContainText('TURN-DONE-1: the widget is blue.');
      await page.getByTestId('turn.reply').fill(reply);
      await page.getByTestId('turn.send').click();
      await expect(card.receipt).toBeVisible();
      await expect(page.getByTestId('card.receipt-status')).toContainText('Sent to OpenCode');
      await expect.poll(() => promptRead(model, 'E2E-FT-reply'), { timeout: forAgentWork() }).toBe(reply);
      const screen = await waitForScreen(tmux, /TURN-DONE-2/);
      expect(screen).toContain(reply);
      // The draft is still in the composer, after the reply's turn.
      expect(screen.lastIndexOf(typed)).toBeGreaterThan(screen.lastIndexOf('TURN-DONE-2'));
      const next = await turnCard(remote, 'TURN-DONE-2');
      expect(next.sessionId).toBe(firstCard.sessionId);
      expect(remote.withdrawn(firstCard.requestId)).toBeUndefined();
      return next;
    });

  await test.step('a prompt typed at the terminal first: the card leaves as answered in the terminal', async () => {
    await tmux.keys(['Enter']);
    await expect
      .poll(() => remote.withdrawn(secondCard.requestId), { timeout: forAgentWork() })
      .toEqual({ reason: FINISHED_TURN_TERMINAL_REASON, terminalAnswer: expect.anything() });
    // The draft the reply left in the composer is what the model reads now.
    await expect.poll(() => promptRead(model, 'E2E-FT-typed'), { timeout: forAgentWork() }).toBe(typed);
    typedTurn.release([{ type: 'text', text: 'TURN-DONE-3: typed at the desk.' }]);
  });

  await test.step('a phone reply that arrives while the terminal’s prompt runs is refused, never sent', async () => {
    const card = await turnCard(remote, 'TURN-DONE-3');
    // The bridge hears nothing for a moment: the reply wins on the host, and the person types meanwhile.
    await withBridgePaused(lab, async () => {
      expect(await remote.respond(card.requestId, { action: 'accept', content: { reply: late } })).toMatchObject({
        ok: true,
      });
      await tmux.keys([waited], { literal: true });
      await waitForScreen(tmux, /E2E-FT-waited/);
      await tmux.keys(['Enter']);
      await waitForScreen(tmux, /TURN-DONE-partial/);
    });
    // Whichever the bridge reads first (the phone's answer or OpenCode's new prompt), the reply is not sent.
    await expect
      .poll(() => remote.withdrawn(card.requestId)?.reason, { timeout: forAgentWork() })
      .toMatch(new RegExp(`^(${FINISHED_TURN_BUSY_REASON}|${FINISHED_TURN_TERMINAL_REASON})$`));
    expect(modelSaw(model, 'E2E-FT-late')).toBe(false);
    expect(await tmux.screen()).not.toContain('E2E-FT-late');
  });

  await test.step('Esc interrupts the running turn: its card says interrupted, with what OpenCode had said', async () => {
    await expect.poll(() => model.calls(marker), { timeout: forAgentWork() }).toBe(5);
    // OpenCode interrupts on a second Esc shortly after the first: pressed until the TUI says so.
    await expect
      .poll(
        async () => {
          await tmux.keys(['Escape']);
          return /interrupted/.test(await tmux.screen());
        },
        { timeout: forAgentWork(), intervals: [300] },
      )
      .toBe(true);
    const card = await remote.next(
      (record) =>
        record.kind === 'finished-turn' &&
        record.sessionId === firstCard.sessionId &&
        record.input.status === 'interrupted',
      forAgentWork(),
    );
    expect(card.input).toMatchObject({ status: 'interrupted', message: 'TURN-DONE-partial', reply: 'prompt' });
    waitedTurn.release([{ type: 'text', text: 'too late' }]);
    expect(modelSaw(model, 'E2E-FT-late')).toBe(false);
  });
});

test('[R19.34] OpenCode: a failed turn shows as failed, with OpenCode’s reason', async ({
  opencode: _opencode,
  sharedTui,
  model,
  remote,
}) => {
  const marker = 'E2E-FT-failing';
  model.add({ marker, turns: [{ type: 'fail', status: 400, message: 'E2E model refused' }] });
  const { tmux } = await sharedTui();
  await newSession(tmux, `${marker}: try`);
  await waitForScreen(tmux, /E2E model refused/);
  const card = await remote.next(
    (record) =>
      record.kind === 'finished-turn' && record.agent?.kind === 'opencode' && record.input.status === 'failed',
    forAgentWork(),
  );
  expect(card.input).toMatchObject({ status: 'failed', error: 'E2E model refused', reply: 'prompt' });
});

test('[R19.30] OpenCode: a subagent’s finished turn shows nothing; the root’s turn that waited for it does', async ({
  opencode: _opencode,
  sharedTui,
  model,
  remote,
}) => {
  const marker = 'E2E-FT-root';
  const sub = 'E2E-FT-sub';
  model.add({ marker: sub, turns: [[{ type: 'text', text: 'SUB-DONE: the tests pass.' }]] });
  model.add({
    marker,
    turns: [
      [
        {
          type: 'tool_call',
          id: 'call_ft_task',
          name: 'task',
          input: { description: 'check tests', prompt: `${sub}: check the tests`, subagent_type: 'general' },
        },
      ],
      [{ type: 'text', text: 'ROOT-DONE: the helper checked the tests.' }],
    ],
  });
  const { tmux } = await sharedTui();
  await newSession(tmux, `${marker}: ask a helper`);
  const card = await turnCard(remote, 'ROOT-DONE');
  // The helper ran in a session of its own, which ended its turn before the root's did: without the bridge's
  // subagent check, its card is on the phone too.
  expect(model.calls(sub)).toBe(1);
  expect(card.input).toMatchObject({ status: 'completed', message: 'ROOT-DONE: the helper checked the tests.' });
  const messages = remote
    .pending()
    .flatMap((record) => (record.kind === 'finished-turn' ? [record.input.message ?? ''] : []))
    .filter((message) => message.includes('DONE: the'));
  expect(messages).toEqual(['ROOT-DONE: the helper checked the tests.']);
});
