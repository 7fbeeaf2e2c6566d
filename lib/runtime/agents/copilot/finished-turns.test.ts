import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FINISHED_TURN_BUSY_REASON,
  FINISHED_TURN_MESSAGE_MAX,
  FINISHED_TURN_TERMINAL_REASON,
  NEWER_TURN_REASON,
  type InteractionRecord,
} from '../../../contracts';
import { pairDevice } from '../../../host/test-support/devices';
import { closeAllHosts, startTestHost, TEST_TOKEN } from '../../../host/test-support/test-host';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { connectScriptedRemote, type ScriptedRemote } from '../../test-support/scripted-remote';
import { createCopilotBridge, type CopilotBridge } from './bridge';
import { COPILOT_GONE_REASON } from './finished-turn-relay';
import { copilotPeerCheck } from './peer-process';
import { FakeCopilot } from './test-support/fake-copilot';
import { COPILOT_NAME } from './to-interaction';

// Finished turns of Copilot sessions through the bridge (R19.40–R19.46): Copilot's `--ui-server` port faked as
// 1.0.102 behaves, a real host, a scripted phone.

const opened: { bridge: CopilotBridge; remote: ScriptedRemote; copilot: FakeCopilot }[] = [];

afterEach(async () => {
  for (const { bridge, remote, copilot } of opened.splice(0)) {
    remote.close();
    await bridge.close();
    await copilot.close();
  }
  await closeAllHosts();
});

async function setup() {
  const host = await startTestHost();
  const remote = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
  const copilot = new FakeCopilot();
  await copilot.listen();
  const logs: string[] = [];
  const bridge = createCopilotBridge({
    runtime: runtimeClientProvider({ url: host.url, token: TEST_TOKEN }),
    port: copilot.port,
    cwd: '/home/ada/shop',
    log: (line) => logs.push(line),
    verifyPeer: (localPort) => copilotPeerCheck(process.pid, copilot.port)(localPort),
  });
  opened.push({ bridge, remote, copilot });
  expect(await bridge.attached).toBe(true);
  await vi.waitFor(() => expect(copilot.follows('session-1')).toBe(true));
  return { remote, copilot, bridge, logs };
}

const finishedCard = (remote: ScriptedRemote, match: (record: InteractionRecord) => boolean = () => true) =>
  remote.next((record) => record.kind === 'finished-turn' && match(record));

/** A prompt typed in the TUI whose turn ends saying `text`; its interaction id. */
function turnSaying(copilot: FakeCopilot, text: string, sessionId = copilot.foreground): string {
  const interactionId = copilot.prompt(sessionId);
  copilot.say(text, { sessionId });
  copilot.endTurn({ sessionId });
  return interactionId;
}

const reply = (remote: ScriptedRemote, card: InteractionRecord, text: string) =>
  remote.respond(card.requestId, { action: 'accept', content: { reply: text } });

describe('[R19.40] finished Copilot turns on the phone', () => {
  it('[R19.40] a root turn ends: a card with its last message, by the session and the interaction', async () => {
    const { remote, copilot } = await setup();
    copilot.event('session-1', 'session.title_changed', { title: 'Widget' }, true);
    const interactionId = copilot.prompt();
    copilot.say('Looking at it.');
    // A model call that only ran tools says nothing: the message before it stays the last word.
    copilot.say('TURN-DONE-1: the widget is blue now.');
    copilot.say('');
    copilot.endTurn();
    const card = await finishedCard(remote);
    expect(card).toMatchObject({
      requestId: `turn:session-1:${interactionId}`,
      sessionId: 'session-1',
      toolName: 'finished-turn',
      agent: { kind: 'copilot', name: COPILOT_NAME, version: '1.0.102' },
      origin: { kind: 'root', depth: 0, turnId: interactionId },
      context: { cwd: '/home/ada/shop', sessionTitle: 'Widget' },
      input: { status: 'completed', message: 'TURN-DONE-1: the widget is blue now.', reply: 'prompt' },
    });
  });

  it('[R19.40] a subagent’s turn shows nothing, and its prompt is not the terminal’s answer', async () => {
    const { remote, copilot } = await setup();
    turnSaying(copilot, 'FIRST-DONE');
    const first = await finishedCard(remote);
    copilot.prompt();
    copilot.say('spawning');
    // The `task` tool's subagent: its own prompt, message and turn end, each with `agentId`.
    const agentId = 'c868660b-f132-4cbe-9f17-282a47dbc8e9';
    copilot.prompt('session-1', { agentId });
    copilot.say('SUBAGENT-DONE', { agentId });
    copilot.event('session-1', 'assistant.turn_end', { turnId: '0' }, false, agentId);
    copilot.event('session-1', 'session.idle', {}, true, agentId);
    copilot.say('ROOT-DONE');
    copilot.endTurn();
    const card = await finishedCard(remote, (record) => record.requestId !== first.requestId);
    expect(card.input).toMatchObject({ message: 'ROOT-DONE' });
    expect(remote.pending().filter((record) => record.kind === 'finished-turn')).toEqual([card]);
  });

  it('[R19.40] an idle the bridge saw no turn before shows nothing; a turn it joined half way does', async () => {
    const { remote, copilot } = await setup();
    // Copilot at rest when the bridge attached, and an idle said again: nothing new ended.
    copilot.event('session-1', 'session.idle', { mode: 'interactive' }, true);
    turnSaying(copilot, 'SEEN-DONE');
    const card = await finishedCard(remote);
    copilot.event('session-1', 'session.idle', { mode: 'interactive' }, true);
    // A turn whose prompt went by before the bridge followed the session: its message names its interaction.
    copilot.event('session-1', 'assistant.message', {
      messageId: 'm-late',
      content: 'JOINED-DONE',
      interactionId: 'i-late',
    });
    copilot.endTurn();
    const joined = await finishedCard(remote, (record) => record.requestId !== card.requestId);
    expect(joined).toMatchObject({ requestId: 'turn:session-1:i-late', input: { message: 'JOINED-DONE' } });
    expect(remote.withdrawn(card.requestId)?.reason).toBe(NEWER_TURN_REASON);
    expect(remote.pending().filter((record) => record.kind === 'finished-turn')).toEqual([joined]);
  });

  it('[R19.41] the phone’s reply is the next prompt of the card’s own session: session.send with exactly its text', async () => {
    const { remote, copilot } = await setup();
    turnSaying(copilot, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    // The TUI moved to another session meanwhile (`/new`): the reply still goes to the card's.
    copilot.switchTo('session-2');
    const text = 'Now make it red.\n  Keep the tests.';
    expect(await reply(remote, card, text)).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(copilot.sent).toEqual([{ sessionId: 'session-1', prompt: text }]));
    expect(copilot.calls.find((call) => call.method === 'session.send')?.params).toEqual({
      sessionId: 'session-1',
      prompt: text,
    });
    // The reply's own `user.message` is not the terminal's answer: the card stays answered.
    expect(remote.withdrawn(card.requestId)).toBeUndefined();
    copilot.say('TURN-DONE-2', { sessionId: 'session-1' });
    copilot.endTurn({ sessionId: 'session-1' });
    const next = await finishedCard(remote, (record) => record.requestId !== card.requestId);
    expect(next).toMatchObject({ sessionId: 'session-1', input: { message: 'TURN-DONE-2' } });
  });

  it('[R19.43] a prompt typed at the terminal first: the card leaves as answered in the terminal', async () => {
    const { remote, copilot } = await setup();
    turnSaying(copilot, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    copilot.prompt();
    await vi.waitFor(() =>
      expect(remote.withdrawn(card.requestId)).toEqual({
        reason: FINISHED_TURN_TERMINAL_REASON,
        terminalAnswer: expect.anything(),
      }),
    );
    expect(copilot.calls.some((call) => call.method === 'session.send')).toBe(false);
  });

  it('[R19.42] a reply that finds Copilot processing (the bridge had not heard yet) is refused as busy, never sent', async () => {
    const { remote, copilot } = await setup();
    turnSaying(copilot, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    // Copilot works on something its events have not told yet: only `isProcessing` knows.
    copilot.processing.add('session-1');
    await reply(remote, card, 'Too late?');
    await vi.waitFor(() => expect(remote.withdrawn(card.requestId)).toEqual({ reason: FINISHED_TURN_BUSY_REASON }));
    expect(copilot.calls.some((call) => call.method === 'session.send')).toBe(false);
  });

  it('[R19.42] a reply after the session said something new is refused, even with Copilot idle', async () => {
    const { remote, copilot } = await setup();
    turnSaying(copilot, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    // An assistant message of the session that no turn start announced (another client's doing).
    copilot.say('said since');
    await reply(remote, card, 'Go on');
    await vi.waitFor(() => expect(remote.withdrawn(card.requestId)).toEqual({ reason: FINISHED_TURN_BUSY_REASON }));
    expect(copilot.calls.some((call) => call.method === 'session.send')).toBe(false);
  });

  it('[R19.42] a prompt typed as the reply is sent: Copilot queues the reply, the bridge takes it back, busy', async () => {
    const { remote, copilot } = await setup();
    turnSaying(copilot, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    // The person's prompt reaches Copilot between the bridge's check and its `session.send`.
    copilot.beforeSend = (sessionId) => {
      copilot.beforeSend = undefined;
      copilot.prompt(sessionId);
    };
    await reply(remote, card, 'Queued behind?');
    await vi.waitFor(() =>
      expect(remote.withdrawn(card.requestId)?.reason).toMatch(
        new RegExp(`^(${FINISHED_TURN_BUSY_REASON}|${FINISHED_TURN_TERMINAL_REASON})$`),
      ),
    );
    await vi.waitFor(() =>
      expect(copilot.calls.find((call) => call.method === 'session.queue.withdrawMessage')?.params).toMatchObject({
        sessionId: 'session-1',
        expectedPrompt: 'Queued behind?',
      }),
    );
    expect(copilot.queue).toEqual([]);
    // The typed turn ends: the reply never ran.
    copilot.endTurn();
    expect(copilot.sent).toEqual([]);
  });

  it('[R19.44] an interrupted turn and a failed one show as such; the failed one has no earlier turn’s message', async () => {
    const { remote, copilot } = await setup();
    copilot.prompt();
    copilot.say('Half way through.');
    copilot.endTurn({ aborted: true });
    const interrupted = await finishedCard(remote);
    expect(interrupted.input).toEqual({ status: 'interrupted', message: 'Half way through.', reply: 'prompt' });
    copilot.prompt();
    copilot.endTurn({ error: '400 E2E model refused' });
    const failed = await finishedCard(remote, (record) => record.requestId !== interrupted.requestId);
    expect(failed.input).toEqual({ status: 'failed', error: '400 E2E model refused', reply: 'prompt' });
    // One card per session: the newer one replaced the older.
    await vi.waitFor(() => expect(remote.withdrawn(interrupted.requestId)).toBeDefined());
  });

  it('[R19.45] Copilot closing its port takes the card away, and a reply after that is not sent', async () => {
    const { remote, copilot } = await setup();
    turnSaying(copilot, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    await copilot.close();
    await vi.waitFor(() => expect(remote.withdrawn(card.requestId)?.reason).toBe(COPILOT_GONE_REASON));
    expect(copilot.calls.some((call) => call.method === 'session.send')).toBe(false);
  });

  it('[R19.46] a last message of any size is clipped before it is announced, saying how long it was', async () => {
    const { remote, copilot } = await setup();
    const long = `${'x'.repeat(FINISHED_TURN_MESSAGE_MAX)}<b>tail</b>`;
    turnSaying(copilot, long);
    const { input } = await finishedCard(remote);
    if (!('status' in input)) throw new Error('not a finished turn');
    expect(input.message).toHaveLength(FINISHED_TURN_MESSAGE_MAX);
    expect(input.message).not.toContain('<b>');
    expect(input.clippedFrom).toBe(long.length);
  });
});
