import { afterEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_PROMPTS_MAX } from '../../../contracts';
import { type Host } from '../../../host/create-host';
import { connectRuntime } from '../../../host/test-support/clients';
import { questionRequest } from '../../../host/test-support/fixtures';
import { closeAllHosts, startTestHost, TEST_TOKEN } from '../../../host/test-support/test-host';
import { BRIDGE_PROTOCOL } from './bridge-protocol';
import { CHILD_SESSION, childSession, permissionAsked, questionAsked, SESSION } from './fixtures';
import {
  ALLOWED_BY_ALWAYS_REASON,
  ANSWERED_IN_TERMINAL_REASON,
  LATE_ANSWER_NOTE,
  OPENCODE_CLOSED_REASON,
  REJECTED_WITH_OTHERS_REASON,
  TURN_ENDED_REASON,
} from './terminal-answer';
import { closeBridgeRigs, openCodeBridgeRig } from './test-support/bridge-rig';
import { type FakeOpenCode } from './test-support/fake-opencode';

afterEach(async () => {
  vi.useRealTimers();
  await closeBridgeRigs();
  await closeAllHosts();
});

/** A real host and phone, the bridge in-process, and OpenCode's side of the plugin faked by its routes. */
const setup = (options: { host?: Host; prepare?: (opencode: FakeOpenCode) => void } = {}) =>
  openCodeBridgeRig({
    host: options.host,
    prepare: (opencode) => {
      opencode.sessions.set(CHILD_SESSION, childSession);
      options.prepare?.(opencode);
    },
    turnEndGraceMs: 0,
  });

const byRequest = (requestId: string) => (record: { requestId: string }) => record.requestId === requestId;

describe('[R18.20][R18.21] the bridge between OpenCode and the host', () => {
  it('[R18.20][R18.23] a question goes to the phone as OpenCode; the answer goes back to its reply route', async () => {
    const { remote, opencode, event, logs } = await setup();
    event('question.asked', questionAsked());
    const record = await remote.next(byRequest('opencode-que_2309dfd01001aQEsFqqjXdJZik'));
    expect(record).toMatchObject({
      agent: { kind: 'opencode', version: '1.18.33' },
      sessionId: SESSION,
      context: { cwd: '/home/ada/shop', sessionTitle: 'Set up the shop' },
    });
    await remote.respond(record.requestId, {
      action: 'accept',
      content: { answers: { 'Which database?': 'Postgres' } },
    });
    await vi.waitFor(() =>
      expect(opencode.posts()).toEqual([
        { method: 'POST', url: '/question/que_2309dfd01001aQEsFqqjXdJZik/reply', body: { answers: [['Postgres']] } },
      ]),
    );
    // OpenCode's own echo of that reply is no terminal answer.
    event('question.replied', {
      sessionID: SESSION,
      requestID: 'que_2309dfd01001aQEsFqqjXdJZik',
      answers: [['Postgres']],
    });
    expect(remote.withdrawn(record.requestId)).toBeUndefined();
    expect(logs).toContain('askaway: que_2309dfd01001aQEsFqqjXdJZik answered 1 of 1 on the phone');
  });

  it("[R18.25] answered in the terminal first: the card leaves saying so; a phone answer OpenCode refuses is logged as late and shown as the terminal's", async () => {
    const { host, remote, opencode, event, logs } = await setup();
    event('question.asked', questionAsked({ id: 'que_terminal' }));
    const first = await remote.next(byRequest('opencode-que_terminal'));
    event('question.replied', { sessionID: SESSION, requestID: 'que_terminal', answers: [['SQLite']] });
    await vi.waitFor(() =>
      expect(remote.withdrawn(first.requestId)).toEqual({ reason: ANSWERED_IN_TERMINAL_REASON, terminalAnswer: {} }),
    );
    expect(opencode.posts()).toEqual([]);

    // The race the other way: OpenCode took the terminal's answer just before the phone's reached it.
    event('question.asked', questionAsked({ id: 'que_race' }));
    const second = await remote.next(byRequest('opencode-que_race'));
    opencode.answered.add('que_race');
    await remote.respond(second.requestId, { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } });
    await vi.waitFor(() =>
      expect(logs.some((line) => line.includes(`que_race: the phone's answer came late, ${LATE_ANSWER_NOTE}`))).toBe(
        true,
      ),
    );
    // The phone is told the terminal's answer won: its resolved card becomes "answered in the terminal".
    await vi.waitFor(() =>
      expect(remote.withdrawn(second.requestId)).toEqual({ reason: ANSWERED_IN_TERMINAL_REASON, terminalAnswer: {} }),
    );
    expect(host.registry.projection.get(second.requestId)).toMatchObject({
      status: 'withdrawn',
      withdrawnReason: ANSWERED_IN_TERMINAL_REASON,
      resolution: { response: { action: 'accept' } },
    });
  });

  it('[R18.24][R18.25] a deny from the phone reaches OpenCode with its reason; what OpenCode denied with it leaves as such', async () => {
    const { remote, opencode, event } = await setup();
    event('permission.asked', permissionAsked({ id: 'per_a' }));
    event('permission.asked', permissionAsked({ id: 'per_b', patterns: ['echo b'], metadata: { command: 'echo b' } }));
    const a = await remote.next(byRequest('opencode-per_a'));
    const b = await remote.next(byRequest('opencode-per_b'));
    await remote.respond(a.requestId, { action: 'decline', message: 'Keep the build folder' });
    await vi.waitFor(() =>
      expect(opencode.posts()).toEqual([
        { method: 'POST', url: '/permission/per_a/reply', body: { reply: 'reject', message: 'Keep the build folder' } },
      ]),
    );
    event('permission.replied', { sessionID: SESSION, requestID: 'per_a', reply: 'reject' });
    event('permission.replied', { sessionID: SESSION, requestID: 'per_b', reply: 'reject' });
    await vi.waitFor(() => expect(remote.withdrawn(b.requestId)).toEqual({ reason: REJECTED_WITH_OTHERS_REASON }));
  });

  it('[R18.24][R18.25] an always from the phone: what OpenCode allowed with it leaves as such', async () => {
    const { remote, event } = await setup();
    event('permission.asked', permissionAsked({ id: 'per_always' }));
    event('permission.asked', permissionAsked({ id: 'per_covered', patterns: ['echo two'] }));
    const first = await remote.next(byRequest('opencode-per_always'));
    const covered = await remote.next(byRequest('opencode-per_covered'));
    await remote.respond(first.requestId, { action: 'accept', content: { choice: 'always' } });
    await vi.waitFor(() => expect(remote.pending().map((record) => record.requestId)).toEqual([covered.requestId]));
    event('permission.replied', { sessionID: SESSION, requestID: 'per_covered', reply: 'always' });
    await vi.waitFor(() => expect(remote.withdrawn(covered.requestId)).toEqual({ reason: ALLOWED_BY_ALWAYS_REASON }));
  });

  it("[R18.22] a subagent's request belongs to its parent session, named after the subagent", async () => {
    const { remote, event } = await setup();
    event('permission.asked', permissionAsked({ id: 'per_sub', sessionID: CHILD_SESSION }));
    const record = await remote.next(byRequest('opencode-per_sub'));
    expect(record).toMatchObject({
      sessionId: SESSION,
      origin: { kind: 'subagent', sessionId: CHILD_SESSION, parentSessionId: SESSION, path: ['general'] },
    });
  });
});

describe('[R18.26] what OpenCode lists, and cards that wait for nothing', () => {
  it('[R18.26] at hello, what waits in a busy session is announced; a ghost of an aborted turn is not', async () => {
    const { remote, bridge, logs } = await setup({
      prepare: (opencode) => {
        opencode.questions = [
          questionAsked({ id: 'que_live' }),
          questionAsked({ id: 'que_ghost', sessionID: 'ses_idle' }),
        ];
        opencode.status = { [SESSION]: { type: 'busy' } };
      },
    });
    await remote.next(byRequest('opencode-que_live'));
    expect(logs).toContain('askaway: OpenCode lists 2 pending prompts');
    expect(remote.pending().map((record) => record.requestId)).toEqual(['opencode-que_live']);
    expect(bridge.open()).toEqual(['que_live']);
  });

  it('[R18.26] a turn that ends without an answer, a closed directory and a closed OpenCode each take their cards away', async () => {
    const { remote, event, bridge, opencode } = await setup();
    event('question.asked', questionAsked({ id: 'que_aborted' }));
    const aborted = await remote.next(byRequest('opencode-que_aborted'));
    event('session.error', {
      sessionID: SESSION,
      error: { name: 'MessageAbortedError', data: { message: 'Aborted' } },
    });
    await vi.waitFor(() => expect(remote.withdrawn(aborted.requestId)).toEqual({ reason: TURN_ENDED_REASON }));

    event('question.asked', questionAsked({ id: 'que_bye' }));
    const bye = await remote.next(byRequest('opencode-que_bye'));
    bridge.receive({ type: 'bye', instance: 1 });
    await vi.waitFor(() => expect(remote.withdrawn(bye.requestId)).toEqual({ reason: OPENCODE_CLOSED_REASON }));

    bridge.receive({ type: 'hello', protocol: BRIDGE_PROTOCOL, instance: 2, directory: '/w' });
    opencode.permissions.push(permissionAsked({ id: 'per_open' }));
    bridge.receive({
      type: 'event',
      instance: 2,
      event: { type: 'permission.asked', properties: permissionAsked({ id: 'per_open' }) },
    });
    const open = await remote.next(byRequest('opencode-per_open'));
    await bridge.close();
    await vi.waitFor(() => expect(remote.withdrawn(open.requestId)).toEqual({ reason: OPENCODE_CLOSED_REASON }));
  });

  it('[R18.23][R6.4] auto-resolution, when the person turned it on, ends an OpenCode question as a skip', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    const host = await startTestHost();
    const { remote, opencode, event } = await setup({ host });
    expect(
      await host.registry.updatePreferences({
        askUserQuestionAutoResolutionEnabled: true,
        askUserQuestionAutoResolutionTimeoutMs: 2_000,
      }),
    ).toMatchObject({ ok: true });
    event('question.asked', questionAsked({ id: 'que_auto' }));
    await remote.next(byRequest('opencode-que_auto'));
    vi.advanceTimersByTime(2_000);
    await vi.waitFor(() =>
      expect(opencode.posts()).toEqual([{ method: 'POST', url: '/question/que_auto/reply', body: { answers: [[]] } }]),
    );
  });
});

describe('[R12.17] an OpenCode flooding the bridge', () => {
  it('[R12.17] the bridge carries at most its bound, the rest stay in OpenCode with one log line; the hub’s own agents still ask', async () => {
    const relaxed = { capacity: 100_000, refillPerSecond: 100_000 };
    // The machine's cap at twice the bound: the bridge's connection may fill its half, no more.
    const host = await startTestHost({
      maxPendingPerMachine: 2 * BRIDGE_PROMPTS_MAX,
      rateLimits: { newInteractions: relaxed, runtime: relaxed },
    });
    const { remote, opencode, bridge, event, logs } = await setup({ host });
    const flood = 3 * BRIDGE_PROMPTS_MAX;
    for (let index = 0; index < flood; index += 1) event('question.asked', questionAsked({ id: `que_flood${index}` }));
    const local = () => host.registry.projection.pendingCount(host.registry.localMachine.id);
    // A hundred announces through a real socket: more than vi.waitFor's default second on a loaded machine.
    await vi.waitFor(() => expect(local()).toBe(BRIDGE_PROMPTS_MAX), { timeout: 15_000 });
    expect(bridge.open()).toHaveLength(BRIDGE_PROMPTS_MAX);
    expect(logs.filter((line) => line.includes('stay in OpenCode') || line.includes('stays in OpenCode'))).toEqual([
      `askaway: ${BRIDGE_PROMPTS_MAX} prompts already wait on the phone: further ones stay in OpenCode (said once)`,
    ]);
    // Nothing was answered for OpenCode: the rest wait in its terminal.
    expect(opencode.posts()).toEqual([]);
    const mcp = await connectRuntime(host.url, TEST_TOKEN, 'mcp');
    expect(await mcp.socket.emitWithAck('announce', questionRequest())).toMatchObject({ ok: true, status: 'pending' });
    // A card answered on the phone reaches OpenCode as ever.
    const card = await remote.next((record) => record.requestId.startsWith('opencode-que_flood'));
    await remote.respond(card.requestId, { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } });
    await vi.waitFor(() => expect(opencode.posts()).toHaveLength(1));
  });
});
