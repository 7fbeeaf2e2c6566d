import { FINISHED_TURN_TERMINAL_REASON, type InteractionRecord } from '../../lib/contracts';
import { AGENT_GONE_REASON } from '../../lib/runtime/agents/claude-code/finished-turn';
import { type ScriptedRemote } from '../../lib/runtime/test-support/scripted-remote';
import { expect, test } from './support/fixtures';
import { passFirstRunDialogs, startInteractive, submitPrompt, waitForScreen } from './support/interactive';
import { type MessagesRequest, type ScriptedBlock, type ScriptedModel } from './support/model-server';
import { forAgentWork } from '../support/agent-wait';

// Finished turns of the real Claude Code 2.1.332 in its terminal UI under tmux, through the Stop hooks `askaway hook
// install` writes (R19.50–R19.55): the phone is a scripted socket.io client, the model is scripted.

/** The finished-turn card of this workspace whose message (or error) holds `text`. */
function turnCard(remote: ScriptedRemote, text: string, dir: string): Promise<InteractionRecord> {
  return remote.next(
    (record) =>
      record.kind === 'finished-turn' &&
      record.agent?.kind === 'claude-code' &&
      record.context?.cwd === dir &&
      JSON.stringify(record.input).includes(text),
    forAgentWork(),
  );
}

const text = (value: string): ScriptedBlock[] => [{ type: 'text', text: value }];

/** Every piece of text the model was sent in the conversation `marker`, joined: what it read. */
function readByModel(model: ScriptedModel, marker: string): string {
  return model.requests
    .filter((request) => request.conversation === marker)
    .map((request) => JSON.stringify(request.body.messages))
    .join('\n');
}

/** The last user message of a request, as text: what the model was asked to go on with. */
function lastUserText(request: MessagesRequest): string {
  return JSON.stringify(request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '');
}

test.describe.configure({ mode: 'serial' });

test('[R19.50][R19.51][R19.52][R19.54] away: the finished turn waits on the phone, the reply continues it, the next card leaves when a prompt is typed, and a late reply never reaches the model', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-cc-ft';
  const ws = await workspace(
    [
      {
        marker,
        turns: [
          text('CC-DONE-1: the widget is blue.\nSay what next.'),
          text('CC-DONE-2: red it is.'),
          text('CC-DONE-3: the typed prompt ran.'),
        ],
      },
    ],
    { finishedTurns: true },
  );
  await remote.updatePreferences({ away: true });
  const tmux = await startInteractive(claude, ws);
  await passFirstRunDialogs(tmux);
  await submitPrompt(tmux, `${marker}: paint the widget`);

  const first = await test.step('the turn ends: the card shows what Claude said last, with a reply box', async () => {
    const card = await turnCard(remote, 'CC-DONE-1', ws.project.dir);
    expect(card).toMatchObject({
      toolName: 'finished-turn',
      origin: { kind: 'root' },
      input: { status: 'completed', reply: 'prompt', message: 'CC-DONE-1: the widget is blue.\nSay what next.' },
      context: { projectName: 'project' },
    });
    // Claude Code holds the turn for the phone meanwhile.
    await waitForScreen(tmux, /running Stop hook/);
    return card;
  });

  await test.step("the phone's reply is the next instruction: the model reads it, the terminal shows it", async () => {
    await remote.respond(first.requestId, { action: 'accept', content: { reply: 'CC-REPLY now make it red' } });
    await waitForScreen(tmux, /CC-DONE-2/);
    const screen = await tmux.screen();
    expect(screen).toMatch(/The user replied from their phone: CC-REPLY now make it red/);
    const continued = ws.model.requests.find(
      (request) => JSON.stringify(request.body).includes('CC-DONE-1') && request.turn === 1,
    );
    expect(continued && lastUserText(continued.body)).toContain(
      'The user replied from their phone: CC-REPLY now make it red',
    );
  });

  const second = await test.step('the turn the reply started is a card of its own', async () => {
    const card = await turnCard(remote, 'CC-DONE-2', ws.project.dir);
    expect(card.requestId).not.toBe(first.requestId);
    expect(card.sessionId).toBe(first.sessionId);
    return card;
  });

  await test.step('a prompt typed in the terminal goes first: the card leaves, the prompt runs', async () => {
    await waitForScreen(tmux, /running Stop hook/);
    await submitPrompt(tmux, 'CC-TYPED go on at the desk');
    await expect
      .poll(() => remote.withdrawn(second.requestId)?.reason, { timeout: forAgentWork() })
      .toBe(FINISHED_TURN_TERMINAL_REASON);
    await waitForScreen(tmux, /CC-DONE-3/);
  });

  await test.step('a phone reply after that is refused, and nothing of it reaches the model', async () => {
    const late = await remote.respond(second.requestId, {
      action: 'accept',
      content: { reply: 'CC-LATE must not arrive' },
    });
    expect(late.ok).toBe(false);
    // The typed turn's own card comes; the late reply is nowhere in what the model read.
    await turnCard(remote, 'CC-DONE-3', ws.project.dir);
    expect(readByModel(ws.model, marker)).not.toContain('CC-LATE');
    expect(readByModel(ws.model, marker)).toContain('CC-TYPED go on at the desk');
  });
  await remote.updatePreferences({ away: false });
});

test('[R19.50][R19.55] at the desk: the turn ends at once and shows on the phone without a reply box until a prompt is typed; a failed turn shows its error', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-cc-desk';
  const ws = await workspace(
    [
      {
        marker,
        turns: [text('CC-DESK-1: done here.'), [{ type: 'error', message: 'E2E model refused' }]],
      },
    ],
    { finishedTurns: true },
  );
  await remote.updatePreferences({ away: false });
  const tmux = await startInteractive(claude, ws);
  await passFirstRunDialogs(tmux);
  await submitPrompt(tmux, `${marker}: finish up`);

  const card = await turnCard(remote, 'CC-DESK-1', ws.project.dir);
  expect(card.input).toMatchObject({ status: 'completed', reply: 'none', noReply: 'not-away' });
  // Nothing holds the terminal: the Stop hooks are done within seconds (Node starting, one question to the host),
  // while the background one keeps the card. (Its verb is random and may hold any letter: "Sautéed".)
  const screen = await waitForScreen(tmux, /CC-DESK-1[\s\S]*✻ \S+ for \d+s/, forAgentWork());
  expect(screen).not.toMatch(/running Stop hook/);
  expect(remote.withdrawn(card.requestId)).toBeUndefined();

  await submitPrompt(tmux, 'CC-DESK-TYPED fail now');
  await expect
    .poll(() => remote.withdrawn(card.requestId)?.reason, { timeout: forAgentWork() })
    .toBe(FINISHED_TURN_TERMINAL_REASON);
  const failed = await turnCard(remote, 'E2E model refused', ws.project.dir);
  expect(failed.input).toMatchObject({ status: 'failed', reply: 'none', noReply: 'turn-failed' });
  expect((failed.input as { error?: string }).error).toMatch(/API Error: 400 E2E model refused/);

  // Claude Code leaves its background hooks running when it exits: the hook sees it go and takes the card along.
  await tmux.stop();
  await expect
    .poll(() => remote.withdrawn(failed.requestId)?.reason, { timeout: forAgentWork() })
    .toBe(AGENT_GONE_REASON);
});

test("[R19.1][R19.50] a subagent's end is no card, nor a turn that ends while it runs in the background: only the root turn after it", async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-cc-sub-root';
  const child = 'E2E-cc-sub-child';
  const ws = await workspace(
    [
      {
        marker,
        turns: [
          [
            {
              type: 'tool_use',
              id: 'toolu_cc_agent',
              name: 'Agent',
              input: {
                description: 'Check the tests',
                prompt: `${child}: run the checks`,
                subagent_type: 'general-purpose',
              },
            },
          ],
          // The interactive UI runs the subagent in the background: this turn ends while it runs.
          text('CC-ROOT-WAITING: the subagent runs.'),
          // Claude wakes when it is done, and this turn is the session's last word.
          text('CC-ROOT-DONE: the subagent reported back.'),
        ],
      },
      { marker: child, turns: [text('CC-SUB-DONE: all checks pass.')] },
    ],
    { finishedTurns: true },
  );
  await remote.updatePreferences({ away: false });
  let wrong: InteractionRecord | undefined;
  remote
    .next(
      (record) => record.kind === 'finished-turn' && /CC-ROOT-WAITING|CC-SUB-DONE/.test(JSON.stringify(record.input)),
      120_000,
    )
    .then((record) => (wrong = record))
    .catch(() => undefined);
  // Auto mode asks a server-side check before a subagent starts, which the scripted model cannot give.
  const tmux = await startInteractive(claude, ws, ['--permission-mode', 'acceptEdits']);
  await passFirstRunDialogs(tmux);
  await submitPrompt(tmux, `${marker}: delegate the checks`);
  const root = await turnCard(remote, 'CC-ROOT-DONE', ws.project.dir);
  expect(root.input).toMatchObject({ status: 'completed' });
  expect(ws.model.requests.some((request) => request.conversation === child)).toBe(true);
  expect(wrong).toBeUndefined();
  await tmux.stop();
  await expect
    .poll(() => remote.withdrawn(root.requestId)?.reason, { timeout: forAgentWork() })
    .toBe(AGENT_GONE_REASON);
  expect(wrong).toBeUndefined();
});

test("[R19.56] at Claude Code's cap on continuations in a row the next finished turn takes no reply: one would be overridden and never read", async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-cc-cap';
  const ws = await workspace([{ marker, turns: [text('CC-CAP-1'), text('CC-CAP-2')] }], { finishedTurns: true });
  // A cap of one (Claude Code's own variable; 8 by default): the first reply continues the turn, a second could not.
  ws.project.env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP = '1';
  await remote.updatePreferences({ away: true });
  const tmux = await startInteractive(claude, ws);
  await passFirstRunDialogs(tmux);
  await submitPrompt(tmux, `${marker}: go`);
  const first = await turnCard(remote, 'CC-CAP-1', ws.project.dir);
  expect(first.input).toMatchObject({ reply: 'prompt' });
  await remote.respond(first.requestId, { action: 'accept', content: { reply: 'CC-CAP-REPLY' } });
  const second = await turnCard(remote, 'CC-CAP-2', ws.project.dir);
  expect(second.input).toMatchObject({ reply: 'none', noReply: 'reply-limit' });
  // Nothing holds the terminal: the turn ended, and Claude Code overrode nothing.
  const screen = await waitForScreen(tmux, /CC-CAP-2[\s\S]*✻ \S+ for \d+s/, forAgentWork());
  expect(screen).not.toMatch(/overriding and ending turn/);
  expect(readByModel(ws.model, marker)).toContain('The user replied from their phone: CC-CAP-REPLY');
  await remote.updatePreferences({ away: false });
  await tmux.stop();
  await expect
    .poll(() => remote.withdrawn(second.requestId)?.reason, { timeout: forAgentWork() })
    .toBe(AGENT_GONE_REASON);
});
