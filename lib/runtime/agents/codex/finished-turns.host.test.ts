import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FINISHED_TURN_BUSY_REASON,
  FINISHED_TURN_MESSAGE_MAX,
  FINISHED_TURN_TERMINAL_REASON,
  type InteractionRecord,
} from '../../../contracts';
import { pairDevice } from '../../../host/test-support/devices';
import { closeAllHosts, startTestHost, tempDir } from '../../../host/test-support/test-host';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { startFakeCodexDaemon, type FakeCodexDaemon, type FakeThread } from '../../test-support/fake-codex-daemon';
import { connectScriptedRemote, type ScriptedRemote } from '../../test-support/scripted-remote';
import { startCodexBridge, type CodexBridge } from './bridge';
import { DAEMON_STOPPED_REASON, THREAD_CLOSED_REASON } from './finished-turn-relay';

// Finished turns of Codex threads through the bridge (R19.20–R19.26): a fake daemon as the TUI's, a real host, a
// scripted phone.

const THREAD = '01a23100-0000-7000-8000-0000000000a1';
const SUBAGENT = '01a23100-0000-7000-8000-0000000000a2';
const TITLE = '01a23100-0000-7000-8000-0000000000a3';
const OTHER = '01a23100-0000-7000-8000-0000000000a4';

interface Rig {
  daemon: FakeCodexDaemon;
  remote: ScriptedRemote;
  bridge: CodexBridge;
  logs: string[];
}

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await closeAllHosts();
});

async function rig(threads: FakeThread[] = [{ id: THREAD, cwd: '/work/shop', name: 'Widget' }]): Promise<Rig> {
  const host = await startTestHost({ dataDir: tempDir() });
  const daemon = await startFakeCodexDaemon();
  cleanups.push(() => daemon.remove());
  for (const thread of threads) daemon.addThread(thread);
  const remote = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
  cleanups.push(() => remote.close());
  const provider = runtimeClientProvider({ url: host.url, token: host.token });
  cleanups.push(() => provider.close());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'askaway-bridge-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const logs: string[] = [];
  const bridge = startCodexBridge({
    homes: [daemon.codexHome],
    runtime: () => provider.get('codex bridge'),
    dataDir,
    owner: 'test',
    log: (line) => logs.push(line),
    pollMs: 20,
  });
  cleanups.push(() => bridge.stop());
  await vi.waitFor(() =>
    expect(bridge.status()[0]).toMatchObject({ state: 'attached', threads: threads.filter(joinable).length }),
  );
  return { daemon, remote, bridge, logs };
}

const joinable = (thread: FakeThread) => !thread.ephemeral;

const finishedCard = (remote: ScriptedRemote, match: (record: InteractionRecord) => boolean = () => true) =>
  remote.next((record) => record.kind === 'finished-turn' && match(record));

/** A turn typed in the TUI that ends saying `text`. */
function turnSaying(daemon: FakeCodexDaemon, text: string, threadId = THREAD): string {
  const turnId = daemon.startTurn(threadId);
  daemon.completeTurn(threadId, {
    status: 'completed',
    items: [
      { type: 'agentMessage', id: 'm1', text: 'Looking at it.' },
      { type: 'commandExecution', id: 'c1' },
      { type: 'agentMessage', id: 'm2', text },
    ],
  });
  return turnId;
}

describe('[R19.20] finished Codex turns on the phone', () => {
  it('[R19.20] a turn of the thread the TUI shows ends: a card with its last message, by the turn’s business id', async () => {
    const { daemon, remote } = await rig();
    const turnId = turnSaying(daemon, 'TURN-DONE-1: the widget is blue now.');
    const card = await finishedCard(remote);
    expect(card).toMatchObject({
      requestId: `turn:${THREAD}:${turnId}`,
      sessionId: THREAD,
      toolName: 'finished-turn',
      agent: { kind: 'codex', name: 'Codex', version: '0.171.0' },
      origin: { kind: 'root', depth: 0 },
      context: { cwd: '/work/shop', projectName: 'shop', sessionTitle: 'Widget' },
      input: { status: 'completed', message: 'TURN-DONE-1: the widget is blue now.', reply: 'prompt' },
    });
  });

  it('[R19.21] the phone’s reply is the thread’s next prompt: turn/start with exactly its text', async () => {
    const { daemon, remote } = await rig();
    turnSaying(daemon, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    const reply = 'Now make it red.\n  Keep the tests.';
    expect(await remote.respond(card.requestId, { action: 'accept', content: { reply } })).toMatchObject({ ok: true });
    await vi.waitFor(() =>
      expect(daemon.turnStarts).toEqual([
        { threadId: THREAD, text: reply, turnId: expect.any(String), steered: false },
      ]),
    );
    // The reply's own turn starting is not the terminal's answer, and the card stays answered.
    expect(remote.withdrawn(card.requestId)).toBeUndefined();
    // Its turn ends in turn: the next card.
    daemon.completeTurn(THREAD, { status: 'completed', items: [{ type: 'agentMessage', text: 'TURN-DONE-2' }] });
    const next = await finishedCard(remote, (record) => record.requestId !== card.requestId);
    expect(next.input).toMatchObject({ message: 'TURN-DONE-2' });
  });

  it('[R19.23] a prompt typed at the terminal first: the card leaves as answered in the terminal', async () => {
    const { daemon, remote } = await rig();
    turnSaying(daemon, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    daemon.startTurn(THREAD);
    await vi.waitFor(() =>
      expect(remote.withdrawn(card.requestId)).toEqual({
        reason: FINISHED_TURN_TERMINAL_REASON,
        terminalAnswer: expect.anything(),
      }),
    );
    expect(daemon.turnStarts).toEqual([]);
  });

  it('[R19.22] a reply that finds the thread working (the bridge had not heard yet) is refused as busy, never sent', async () => {
    const threads: FakeThread[] = [{ id: THREAD, cwd: '/work/shop' }];
    const { daemon, remote } = await rig(threads);
    turnSaying(daemon, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    // Another turn runs, and its turn/started has not reached the bridge: only the daemon knows.
    const thread = threads[0];
    if (!thread) throw new Error('no thread');
    thread.status = { type: 'active', activeFlags: [] };
    thread.turns = [...(thread.turns ?? []), { id: 'typed-meanwhile', status: 'inProgress' }];
    await remote.respond(card.requestId, { action: 'accept', content: { reply: 'Too late?' } });
    await vi.waitFor(() => expect(remote.withdrawn(card.requestId)).toEqual({ reason: FINISHED_TURN_BUSY_REASON }));
    expect(daemon.turnStarts).toEqual([]);
  });

  it('[R19.22] a reply to a card whose turn is no longer the last one is refused, even with the thread idle', async () => {
    const threads: FakeThread[] = [{ id: THREAD }];
    const { daemon, remote } = await rig(threads);
    turnSaying(daemon, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    const thread = threads[0];
    if (!thread) throw new Error('no thread');
    thread.turns = [...(thread.turns ?? []), { id: 'ended-unseen', status: 'completed' }];
    await remote.respond(card.requestId, { action: 'accept', content: { reply: 'Go on' } });
    await vi.waitFor(() => expect(remote.withdrawn(card.requestId)).toEqual({ reason: FINISHED_TURN_BUSY_REASON }));
    expect(daemon.turnStarts).toEqual([]);
  });

  it('[R19.24] an interrupted turn and a failed one show as such, with what was said and the error', async () => {
    const { daemon, remote } = await rig([{ id: THREAD, agentMessage: 'Half way through.' }]);
    daemon.startTurn(THREAD);
    daemon.completeTurn(THREAD, { status: 'interrupted' });
    const interrupted = await finishedCard(remote);
    // 0.171 sends an interrupted turn without items: what it said comes from thread/items/list.
    expect(interrupted.input).toEqual({ status: 'interrupted', message: 'Half way through.', reply: 'prompt' });
    daemon.startTurn(THREAD);
    daemon.completeTurn(THREAD, { status: 'failed', error: 'E2E model refused' });
    const failed = await finishedCard(remote, (record) => record.requestId !== interrupted.requestId);
    expect(failed.input).toMatchObject({ status: 'failed', error: 'E2E model refused' });
    // One card per session: the newer one replaced the older.
    await vi.waitFor(() => expect(remote.withdrawn(interrupted.requestId)).toBeDefined());
  });

  it('[R19.20] a subagent’s turn and the title thread’s show nothing', async () => {
    const { daemon, remote } = await rig([
      { id: THREAD },
      { id: SUBAGENT, parentThreadId: THREAD },
      { id: TITLE, ephemeral: true },
    ]);
    turnSaying(daemon, 'SUBAGENT-DONE', SUBAGENT);
    turnSaying(daemon, 'ROOT-DONE', THREAD);
    const card = await finishedCard(remote);
    expect(card.input).toMatchObject({ message: 'ROOT-DONE' });
    expect(remote.pending().filter((record) => record.kind === 'finished-turn')).toHaveLength(1);
  });

  it('[R19.20] a turn that ends while the thread’s goal is active is no card: Codex goes on by itself', async () => {
    const threads: FakeThread[] = [{ id: THREAD, goal: { status: 'active' } }, { id: OTHER }];
    const { daemon, remote } = await rig(threads);
    turnSaying(daemon, 'GOAL-STEP-1');
    // Another thread's turn, announced after the goal's step would have been.
    turnSaying(daemon, 'OTHER-DONE', OTHER);
    await finishedCard(remote);
    const messages = () =>
      remote.pending().flatMap((record) => (record.kind === 'finished-turn' ? [record.input.message] : []));
    expect(messages()).toEqual(['OTHER-DONE']);
    const thread = threads[0];
    if (!thread) throw new Error('no thread');
    thread.goal = { status: 'complete' };
    turnSaying(daemon, 'GOAL-DONE');
    await finishedCard(remote, (record) => record.sessionId === THREAD);
    expect(messages().sort()).toEqual(['GOAL-DONE', 'OTHER-DONE']);
  });

  it('[R19.25] a thread whose last turn ended before the bridge joined it gets its card on joining', async () => {
    const { remote } = await rig([
      {
        id: THREAD,
        turns: [
          { id: 'old', status: 'completed', items: [{ type: 'agentMessage', text: 'old' }] },
          { id: 'last', status: 'completed', items: [{ type: 'agentMessage', text: 'TURN-DONE-before' }] },
        ],
      },
    ]);
    const card = await finishedCard(remote);
    expect(card).toMatchObject({ requestId: `turn:${THREAD}:last`, input: { message: 'TURN-DONE-before' } });
  });

  it('[R19.26] a last message of any size is clipped before it is announced, saying from how long', async () => {
    const { daemon, remote } = await rig();
    const huge = `TURN-DONE-huge ${'x'.repeat(1_000_000)}`;
    turnSaying(daemon, huge);
    const card = await finishedCard(remote);
    expect(card.input).toMatchObject({ clippedFrom: huge.length });
    const message = card.kind === 'finished-turn' ? (card.input.message ?? '') : '';
    expect(message.length).toBeLessThanOrEqual(FINISHED_TURN_MESSAGE_MAX);
    expect(message.startsWith('TURN-DONE-huge xxx')).toBe(true);
  });

  it('[R19.26] a turn whose id no Codex would send (longer than an id may be) is no card, and is not kept', async () => {
    const { daemon, remote } = await rig([{ id: THREAD }, { id: OTHER }]);
    daemon.startTurn(THREAD, 'x'.repeat(100_000));
    daemon.completeTurn(THREAD, { status: 'completed', items: [{ type: 'agentMessage', text: 'HOSTILE' }] });
    // Another thread's turn, announced after the hostile one would have been.
    turnSaying(daemon, 'TURN-DONE-other', OTHER);
    await finishedCard(remote);
    const messages = remote
      .pending()
      .flatMap((record) => (record.kind === 'finished-turn' ? [record.input.message] : []));
    expect(messages).toEqual(['TURN-DONE-other']);
  });

  it('[R19.20] a thread closed in Codex takes its card with it', async () => {
    const { daemon, remote } = await rig();
    turnSaying(daemon, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    daemon.notify('thread/closed', { threadId: THREAD });
    await vi.waitFor(() => expect(remote.withdrawn(card.requestId)).toEqual({ reason: THREAD_CLOSED_REASON }));
  });

  it('[R19.20] the daemon going away takes the cards of its threads with it', async () => {
    const { daemon, remote } = await rig();
    turnSaying(daemon, 'TURN-DONE-1');
    const card = await finishedCard(remote);
    await daemon.stop({ dead: true });
    await vi.waitFor(() => expect(remote.withdrawn(card.requestId)).toEqual({ reason: DAEMON_STOPPED_REASON }));
  });
});
