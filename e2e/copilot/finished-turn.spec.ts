// Finished turns of the real Copilot CLI through `askaway copilot` (R19.40–R19.46): each turn's end is a card on a
// scripted phone, a reply from there (the PWA's) is the session's next prompt, the terminal still answers first.
import { FINISHED_TURN_BUSY_REASON, FINISHED_TURN_TERMINAL_REASON, type InteractionRecord } from '../../lib/contracts';
import { type ScriptedRemote } from '../../lib/runtime/test-support/scripted-remote';
import { type ChatRequest, type ScriptedBlock, type ScriptedModel } from '../opencode/support/model-server';
import { forAgentWork } from '../support/agent-wait';
import { startFailingModel } from './support/failing-model';
import { expect, test } from './support/fixtures';
import { TUI_START_TIMEOUT_MS } from './support/tui';

// One Copilot at a time (about 300 MB each); each test runs several turns.
test.describe.configure({ mode: 'serial', timeout: TUI_START_TIMEOUT_MS + 180_000 });

/** The finished-turn card whose message holds `text`. */
function turnCard(remote: ScriptedRemote, text: string): Promise<InteractionRecord> {
  return remote.next(
    (record) =>
      record.kind === 'finished-turn' &&
      record.agent?.kind === 'copilot' &&
      'status' in record.input &&
      (record.input.message ?? '').includes(text),
    forAgentWork(),
  );
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : '')).join('\n');
}

/** What the model read as the prompt of a call: the last user message, without the date Copilot puts before it. */
function lastPrompt(body: ChatRequest): string {
  const users = body.messages.filter((message) => message.role === 'user');
  return textOf(users.at(-1)?.content).replace(/^<current_datetime>[^<]*<\/current_datetime>\n\n/, '');
}

/** The prompt of the model's last call whose prompt holds `marker`. */
function promptRead(model: ScriptedModel, marker: string): string | undefined {
  for (const { body } of [...model.requests].reverse()) {
    const prompt = lastPrompt(body);
    if (prompt.includes(marker)) return prompt;
  }
  return undefined;
}

const sawPrompt = (model: ScriptedModel, marker: string) =>
  model.requests.some(({ body }) => body.messages.some((message) => textOf(message.content).includes(marker)));

/** The scripted model answers each prompt of the session by what it says, whatever came before. */
function byPrompt(answers: Record<string, ScriptedBlock[]>) {
  const answer = (request: ChatRequest): ScriptedBlock[] => {
    // A call after a tool ran (not in these scripts but the interrupted `sleep`'s): nothing more to say.
    if (request.messages.at(-1)?.role === 'tool') return [{ type: 'text', text: 'after the tool' }];
    const prompt = lastPrompt(request);
    const found = Object.entries(answers).find(([marker]) => prompt.includes(marker));
    return found ? found[1] : [{ type: 'text', text: 'unscripted' }];
  };
  return Array.from({ length: 40 }, () => answer);
}

test('[R19.40][R19.41][R19.42][R19.43][R19.44] Copilot: a finished turn on the phone, the reply as the next prompt, the terminal first, a late reply refused, an interrupted and a failed turn', async ({
  lab,
  model,
  remote,
  phone,
}) => {
  const first = 'E2E-CPFT-first';
  const reply = 'E2E-CPFT-reply: now make it red, keep the tests';
  const typed = 'E2E-CPFT-typed';
  const late = 'E2E-CPFT-late: this must never reach the model';
  const waited = 'E2E-CPFT-waited';
  const failing = 'E2E-CPFT-failing';
  model.add({
    marker: first,
    turns: byPrompt({
      [first]: [{ type: 'text', text: 'TURN-DONE-1: the widget is blue.\nSay what next.' }],
      'E2E-CPFT-reply': [{ type: 'text', text: 'TURN-DONE-2: red it is.' }],
      [typed]: [{ type: 'text', text: 'TURN-DONE-3: typed at the desk.' }],
      'E2E-CPFT-late': [{ type: 'text', text: 'the late reply got through' }],
      // It says something, then runs a command that lasts: the turn still runs.
      [waited]: [
        { type: 'text', text: 'TURN-DONE-partial' },
        { type: 'tool_call', id: 'call_wait', name: 'bash', input: { command: 'sleep 120', description: 'Waits' } },
      ],
    }),
  });
  const gate = await startFailingModel(model.url, failing, 'E2E model refused');
  try {
    // `--allow-all-tools`: the command runs without a permission prompt, so the turn is busy with it alone.
    const cli = await lab.tui({ modelUrl: gate.url, args: ['--allow-all-tools'] });

    const firstCard = await test.step('the turn ends: its card shows what Copilot said last', async () => {
      await cli.submit(`${first}: paint the widget`);
      await cli.waitFor(/TURN-DONE-1/, forAgentWork());
      const card = await turnCard(remote, 'TURN-DONE-1');
      expect(card).toMatchObject({
        kind: 'finished-turn',
        toolName: 'finished-turn',
        agent: { kind: 'copilot', name: 'GitHub Copilot', version: '1.0.102' },
        origin: { kind: 'root' },
        input: { status: 'completed', message: 'TURN-DONE-1: the widget is blue.\nSay what next.', reply: 'prompt' },
        context: { cwd: cli.project },
      });
      expect(card.requestId).toBe(`turn:${card.sessionId ?? ''}:${card.origin?.turnId ?? ''}`);
      return card;
    });

    const secondCard =
      await test.step('a reply in the PWA is the next prompt: the model reads exactly it, the TUI shows it', async () => {
        // The person starts a prompt at the desk and leaves it unsent: the reply must not touch it.
        await cli.keys([`${typed}: do it here`], { literal: true });
        await cli.waitFor(new RegExp(`❯ ${typed}: do it here`));
        const card = await phone.openCard(firstCard.requestId);
        const page = phone.page;
        await expect(page.getByTestId('turn.status')).toHaveText(/Finished/);
        await expect(page.getByTestId('turn.message')).toContainText('TURN-DONE-1: the widget is blue.');
        await page.getByTestId('turn.reply').fill(reply);
        await page.getByTestId('turn.send').click();
        await expect(card.receipt).toBeVisible();
        await expect(page.getByTestId('card.receipt-status')).toContainText('Sent to GitHub Copilot');
        await expect.poll(() => promptRead(model, 'E2E-CPFT-reply'), { timeout: forAgentWork() }).toBe(reply);
        await cli.waitFor(new RegExp(`❯ ${reply}`), forAgentWork());
        const screen = await cli.waitFor(/TURN-DONE-2/, forAgentWork());
        // The draft is still in the composer, below the reply's turn, and was never sent.
        expect(screen.slice(screen.indexOf('TURN-DONE-2'))).toContain(`❯ ${typed}: do it here`);
        expect(sawPrompt(model, typed)).toBe(false);
        const next = await turnCard(remote, 'TURN-DONE-2');
        expect(next.sessionId).toBe(firstCard.sessionId);
        expect(remote.withdrawn(firstCard.requestId)).toBeUndefined();
        return next;
      });

    await test.step('a prompt typed at the terminal first: the card leaves as answered in the terminal', async () => {
      // The draft from before, sent now.
      await cli.keys(['Enter']);
      await expect
        .poll(() => remote.withdrawn(secondCard.requestId), { timeout: forAgentWork() })
        .toEqual({ reason: FINISHED_TURN_TERMINAL_REASON, terminalAnswer: expect.anything() });
    });

    await test.step('a phone reply that arrives while the terminal’s prompt runs is refused, never sent', async () => {
      const card = await turnCard(remote, 'TURN-DONE-3');
      // The bridge hears nothing for a moment: the reply wins on the host, and the person types meanwhile.
      await cli.pause();
      try {
        expect(await remote.respond(card.requestId, { action: 'accept', content: { reply: late } })).toMatchObject({
          ok: true,
        });
        await cli.submit(`${waited}: still at the desk`);
        await cli.waitFor(/sleep 120/, forAgentWork());
      } finally {
        await cli.resume();
      }
      // Whichever the bridge reads first (the phone's answer or Copilot's new prompt), the reply is not sent.
      await expect
        .poll(() => remote.withdrawn(card.requestId)?.reason, { timeout: forAgentWork() })
        .toMatch(new RegExp(`^(${FINISHED_TURN_BUSY_REASON}|${FINISHED_TURN_TERMINAL_REASON})$`));
      expect(await cli.screen()).not.toMatch(/Queued/);
      expect(sawPrompt(model, 'E2E-CPFT-late')).toBe(false);
    });

    await test.step('Esc Esc interrupts the running turn: its card says interrupted, with what Copilot had said', async () => {
      // Two presses apart (the status line says "esc esc interrupt"): sent in one write, tmux makes them Alt+Esc.
      await cli.keys(['Escape']);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await cli.keys(['Escape']);
      await cli.waitFor(/Operation cancelled by user/, forAgentWork());
      const card = await remote.next(
        (record) =>
          record.kind === 'finished-turn' && 'status' in record.input && record.input.status === 'interrupted',
        forAgentWork(),
      );
      expect(card.input).toMatchObject({ status: 'interrupted', message: 'TURN-DONE-partial' });
      expect(sawPrompt(model, 'E2E-CPFT-late')).toBe(false);
    });

    await test.step('a failed turn: its card says failed, with Copilot’s error', async () => {
      await cli.submit(`${failing}: try`);
      await cli.waitFor(/E2E model refused/, forAgentWork());
      const card = await remote.next(
        (record) => record.kind === 'finished-turn' && 'status' in record.input && record.input.status === 'failed',
        forAgentWork(),
      );
      expect(card.input).toEqual({ status: 'failed', error: '400 E2E model refused', reply: 'prompt' });
      expect(gate.refused).toBeGreaterThan(0);
    });
    expect(sawPrompt(model, 'E2E-CPFT-late')).toBe(false);
  } finally {
    await gate.close();
  }
});

test('[R19.40] Copilot: a subagent’s end shows nothing; the root’s turn that waited for it does, with the root’s words', async ({
  lab,
  model,
  remote,
}) => {
  const root = 'E2E-CPFT-root';
  const said = 'ROOT-SAID: a helper checks the tests.';
  model.add({
    marker: root,
    turns: [
      [
        { type: 'text', text: said },
        {
          type: 'tool_call',
          id: 'call_task',
          name: 'task',
          input: { name: 'helper', agent_type: 'task', description: 'Checks the tests', prompt: 'E2E-CPFT-sub: check' },
        },
      ],
      // The root's last call says nothing more: its last words are the ones before the helper ran.
      [{ type: 'text', text: '' }],
    ],
  });
  model.add({ marker: 'E2E-CPFT-sub', turns: [[{ type: 'text', text: 'SUB-DONE: the tests pass.' }]] });
  const cli = await lab.tui();
  await cli.submit(`${root}: ask a helper`);
  const card = await turnCard(remote, 'ROOT-SAID');
  // The helper ran as a subagent (its own prompt to the model; its events carry `agentId`) and spoke after the
  // root's words: taken for the root's, its prompt would have started another turn and its words been the card's.
  expect(model.calls('E2E-CPFT-sub')).toBeGreaterThan(0);
  await cli.waitFor(/SUB-DONE/);
  expect(card.input).toMatchObject({ status: 'completed', message: said });
  // This session's cards only: the worker's host keeps earlier tests' (their Copilot was killed, not closed).
  const messages = remote
    .pending()
    .filter((record) => record.sessionId === card.sessionId)
    .flatMap((record) => (record.kind === 'finished-turn' && 'status' in record.input ? [record.input.message] : []));
  expect(messages).toEqual([said]);
  expect(await cli.log()).not.toMatch(/finished turn of session \S+: (replaced|answered-in-terminal)/);
});
