import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FINISHED_TURN_BUSY_REASON,
  FINISHED_TURN_MESSAGE_MAX,
  FINISHED_TURN_TERMINAL_REASON,
  type InteractionRecord,
} from '../../../contracts';
import { closeAllHosts } from '../../../host/test-support/test-host';
import { type ScriptedRemote } from '../../test-support/scripted-remote';
import { OPENCODE_GONE_REASON, SESSION_DELETED_REASON } from './finished-turn-relay';
import { CHILD_SESSION, childSession, SESSION } from './fixtures';
import { closeBridgeRigs, openCodeBridgeRig } from './test-support/bridge-rig';
import { nextMessageId, OpenCodeTurns } from './test-support/opencode-turns';

/** Another root session of the same OpenCode. */
const OTHER_SESSION = 'ses_dcf6aaaa8ffee4bnn0QDSRMbb3';

// Finished turns of OpenCode sessions through the bridge (R19.30–R19.35): OpenCode's side of the plugin faked by its
// routes and the events 1.18.33 sends, a real host, a scripted phone.

afterEach(async () => {
  await closeBridgeRigs();
  await closeAllHosts();
});

async function rig() {
  const made = await openCodeBridgeRig({
    prepare: (opencode) => {
      opencode.sessions.set(CHILD_SESSION, childSession);
      opencode.sessions.set(OTHER_SESSION, { id: OTHER_SESSION, title: 'Another', agent: 'build' });
    },
    turnSettleMs: 20,
  });
  return { ...made, turns: new OpenCodeTurns(made.opencode, made.event) };
}

const finishedCard = (remote: ScriptedRemote, match: (record: InteractionRecord) => boolean = () => true) =>
  remote.next((record) => record.kind === 'finished-turn' && match(record));

const finishedMessages = (remote: ScriptedRemote) =>
  remote.pending().flatMap((record) => (record.kind === 'finished-turn' ? [record.input.message] : []));

describe('[R19.30] finished OpenCode turns on the phone', () => {
  it('[R19.30][R19.33] a turn ends: one card with its last message, by the session and its last reply, though idle comes twice and OpenCode sends the old prompt again', async () => {
    const { remote, turns } = await rig();
    const prompt = turns.prompt(SESSION, 'paint the widget');
    const { replies } = turns.reply(SESSION, prompt, [
      { said: 'Looking at it.', finish: 'tool-calls' },
      { said: 'TURN-DONE-1: the widget is blue now.', finish: 'stop' },
    ]);
    // OpenCode's second idle for the same turn.
    turns.emit('session.idle', { sessionID: SESSION });
    const card = await finishedCard(remote);
    expect(card).toMatchObject({
      requestId: `turn:${SESSION}:${replies[1]}`,
      sessionId: SESSION,
      toolName: 'finished-turn',
      agent: { kind: 'opencode', name: 'OpenCode', version: '1.18.33' },
      origin: { kind: 'root', depth: 0 },
      context: { cwd: '/home/ada/shop', projectName: 'shop', sessionTitle: 'Set up the shop' },
      input: { status: 'completed', message: 'TURN-DONE-1: the widget is blue now.', reply: 'prompt' },
    });
    // The prompt OpenCode sends again after the turn (here once more, after the card) is not the terminal's answer.
    turns.emit('message.updated', { sessionID: SESSION, info: { id: prompt, sessionID: SESSION, role: 'user' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(finishedMessages(remote)).toEqual(['TURN-DONE-1: the widget is blue now.']);
    expect(remote.withdrawn(card.requestId)).toBeUndefined();
  });

  it('[R19.31] the phone’s reply is the session’s next prompt: prompt_async with exactly its text', async () => {
    const { remote, opencode, turns } = await rig();
    turns.turn(SESSION, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    const reply = 'Now make it red.\n  Keep the tests.';
    expect(await remote.respond(card.requestId, { action: 'accept', content: { reply } })).toMatchObject({ ok: true });
    await vi.waitFor(() =>
      expect(opencode.prompts).toEqual([{ sessionID: SESSION, body: { parts: [{ type: 'text', text: reply }] } }]),
    );
    // The reply's own prompt arriving is not the terminal's answer; its turn ends in the next card.
    const prompt = turns.prompt(SESSION, reply);
    turns.reply(SESSION, prompt, [{ said: 'TURN-DONE-2', finish: 'stop' }]);
    const next = await finishedCard(remote, (record) => record.requestId !== card.requestId);
    expect(next.input).toMatchObject({ message: 'TURN-DONE-2' });
    expect(remote.withdrawn(card.requestId)).toBeUndefined();
  });

  it('[R19.33] a prompt typed at the terminal first: the card leaves as answered in the terminal', async () => {
    const { remote, opencode, turns } = await rig();
    turns.turn(SESSION, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    turns.prompt(SESSION, 'typed at the desk');
    await vi.waitFor(() =>
      expect(remote.withdrawn(card.requestId)).toEqual({
        reason: FINISHED_TURN_TERMINAL_REASON,
        terminalAnswer: expect.anything(),
      }),
    );
    expect(opencode.prompts).toEqual([]);
  });

  it('[R19.33] a prompt typed the moment the turn ended (before its card) leaves no card behind', async () => {
    const { remote, turns } = await rig();
    turns.turn(SESSION, 'TURN-DONE-1');
    const typed = turns.prompt(SESSION, 'typed at once');
    // Past the settle time, with the typed prompt's turn still running.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(finishedMessages(remote)).toEqual([]);
    turns.reply(SESSION, typed, [{ said: 'TURN-DONE-2', finish: 'stop' }]);
    await finishedCard(remote);
    expect(finishedMessages(remote)).toEqual(['TURN-DONE-2']);
  });

  it('[R19.32] a reply that finds the session busy (the bridge had not heard yet) is refused, never sent', async () => {
    const { remote, opencode, turns } = await rig();
    turns.turn(SESSION, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    // Only OpenCode knows: a prompt from another client runs, and its event has not reached the bridge.
    opencode.status[SESSION] = { type: 'busy' };
    await remote.respond(card.requestId, { action: 'accept', content: { reply: 'Too late?' } });
    await vi.waitFor(() => expect(remote.withdrawn(card.requestId)).toEqual({ reason: FINISHED_TURN_BUSY_REASON }));
    expect(opencode.prompts).toEqual([]);
  });

  it('[R19.32] a reply to a card whose message is no longer the session’s newest is refused, even with the session idle', async () => {
    const { remote, opencode, turns } = await rig();
    turns.turn(SESSION, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    // A turn came and went unheard (the bridge restarted, an event lost): OpenCode's newest message is another.
    opencode.messages.get(SESSION)?.push({
      info: { id: nextMessageId(), sessionID: SESSION, role: 'assistant', finish: 'stop' },
      parts: [],
    });
    await remote.respond(card.requestId, { action: 'accept', content: { reply: 'Go on' } });
    await vi.waitFor(() => expect(remote.withdrawn(card.requestId)).toEqual({ reason: FINISHED_TURN_BUSY_REASON }));
    expect(opencode.prompts).toEqual([]);
  });

  it('[R19.34] an interrupted turn and a failed one show as such, with what was said and OpenCode’s reason', async () => {
    const { remote, turns } = await rig();
    const first = turns.prompt(SESSION, 'start');
    // Esc while the model works on its next step: that step said nothing yet.
    turns.reply(SESSION, first, [{ said: 'Half way through.', finish: 'tool-calls' }, {}], {
      name: 'MessageAbortedError',
      data: { message: 'Aborted' },
    });
    const interrupted = await finishedCard(remote);
    expect(interrupted.input).toEqual({ status: 'interrupted', message: 'Half way through.', reply: 'prompt' });
    const second = turns.prompt(SESSION, 'again');
    turns.reply(SESSION, second, [{}], {
      name: 'APIError',
      data: { message: 'E2E model refused' },
    });
    const failed = await finishedCard(remote, (record) => record.requestId !== interrupted.requestId);
    expect(failed.input).toEqual({ status: 'failed', error: 'E2E model refused', reply: 'prompt' });
    // One card per session: the newer one replaced the older (the typed prompt had withdrawn it already).
    await vi.waitFor(() => expect(remote.withdrawn(interrupted.requestId)).toBeDefined());
  });

  it('[R19.30] a subagent’s session ending its turn shows nothing; its parent’s turn does', async () => {
    const { remote, turns } = await rig();
    const root = turns.prompt(SESSION, 'delegate');
    turns.turn(CHILD_SESSION, 'SUBAGENT-DONE');
    turns.reply(SESSION, root, [{ said: 'ROOT-DONE', finish: 'stop' }]);
    const card = await finishedCard(remote);
    expect(card.input).toMatchObject({ message: 'ROOT-DONE' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(finishedMessages(remote)).toEqual(['ROOT-DONE']);
  });

  it('[R19.30] a session deleted in OpenCode takes its card with it', async () => {
    const { remote, turns } = await rig();
    turns.turn(SESSION, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    turns.emit('session.deleted', { sessionID: SESSION, info: { id: SESSION } });
    await vi.waitFor(() => expect(remote.withdrawn(card.requestId)).toEqual({ reason: SESSION_DELETED_REASON }));
  });

  it('[R19.30] OpenCode closing takes the cards with it, and the turns it aborts on the way out are no cards', async () => {
    const { remote, turns, bridge } = await rig();
    turns.turn(SESSION, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    const busy = turns.prompt(OTHER_SESSION, 'still working');
    // OpenCode aborts every busy session, then disposes the plugin: within the settle time.
    turns.reply(OTHER_SESSION, busy, [{ said: 'partial' }], {
      name: 'MessageAbortedError',
      data: { message: 'Aborted' },
    });
    bridge.receive({ type: 'bye', instance: 1 });
    await vi.waitFor(() => expect(remote.withdrawn(card.requestId)).toEqual({ reason: OPENCODE_GONE_REASON }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(finishedMessages(remote)).toEqual([]);
  });

  it('[R19.35] a last message of any size is clipped before it is announced, saying from how long', async () => {
    const { remote, turns } = await rig();
    const huge = `TURN-DONE-huge ${'x'.repeat(1_000_000)}`;
    turns.turn(SESSION, huge);
    const card = await finishedCard(remote);
    expect(card.input).toMatchObject({ clippedFrom: huge.length });
    const message = card.kind === 'finished-turn' ? (card.input.message ?? '') : '';
    expect(message.length).toBeLessThanOrEqual(FINISHED_TURN_MESSAGE_MAX);
    expect(message.startsWith('TURN-DONE-huge xxx')).toBe(true);
  });

  it('[R19.35] a session or message id no OpenCode would send (longer than an id may be) is no card', async () => {
    const { remote, turns, event } = await rig();
    const long = `ses_${'x'.repeat(100_000)}`;
    event('message.updated', { info: { id: 'msg_1', sessionID: long, role: 'assistant', parentID: 'msg_0' } });
    event('session.idle', { sessionID: long });
    turns.turn(SESSION, 'TURN-DONE-other');
    await finishedCard(remote);
    expect(finishedMessages(remote)).toEqual(['TURN-DONE-other']);
  });
});
