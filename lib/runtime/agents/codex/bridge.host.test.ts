import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_PROMPTS_MAX } from '../../../contracts';
import { connectRuntime } from '../../../host/test-support/clients';
import { questionRequest } from '../../../host/test-support/fixtures';
import { codexElicitationParams, HOSTILE_PATTERN_FORMS } from '../../../host/test-support/hostile-patterns';
import { filesHolding } from '../../../host/test-support/files-holding';
import { closeAllHosts, startTestHost, TEST_TOKEN } from '../../../host/test-support/test-host';
import { type HostOptions } from '../../../host';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { type FakeCodexDaemon, type FakeThread } from '../../test-support/fake-codex-daemon';
import { makeFifoWithWriter } from '../../test-support/special-files';
import { daemonPidFile } from './codex-home';
import { readBridgeStatuses } from './bridge-status';
import { CODEX_PROMPT_METHODS } from './protocol';
import { commandApprovalParams, requestUserInputParams } from './test-fixtures';
import { ANSWERED_IN_TERMINAL_REASON, DAEMON_GONE_REASON } from './terminal-answer';
import { bridgeFor, bridgeJoined, bridgeRig } from './test-support/bridge-rig';

const THREAD = '01a23100-0000-7000-8000-000000000001';
const OTHER_THREAD = '01a23100-0000-7000-8000-000000000002';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await closeAllHosts();
});

const rig = (
  threads: FakeThread[] = [{ id: THREAD, cwd: '/work/project', name: 'Widget', agentMessage: 'Two quick choices.' }],
  /** Changes the daemon's home before the bridge looks at it. */
  prepare?: (daemon: FakeCodexDaemon) => void,
  hostOptions: Partial<HostOptions> = {},
) => bridgeRig(cleanups, threads, prepare, hostOptions);

describe('[R18.10] the Codex bridge against a Codex daemon', () => {
  it('[R18.10] joins the loaded threads and carries a question to the phone; the answer goes back in Codex’s format', async () => {
    const setup = await rig();
    await bridgeJoined(setup);
    setup.daemon.ask(THREAD, 0, CODEX_PROMPT_METHODS.question, requestUserInputParams);
    const card = await setup.remote.next((record) => record.sessionId === THREAD);
    expect(card).toMatchObject({
      kind: 'question',
      agent: { kind: 'codex', name: 'Codex', version: '0.171.0' },
      toolUseId: 'call_LABQ1_t0_1',
      context: { cwd: '/work/project', sessionTitle: 'Widget', agentMessage: 'Two quick choices.' },
    });
    expect(card.requestId).toMatch(new RegExp(`^codex-[0-9a-f]{12}-${THREAD}-0$`));
    await setup.remote.respond(card.requestId, {
      action: 'accept',
      content: { answers: { 'Which color?': 'Blue', 'Paste a token?': 'hunter2' } },
    });
    await vi.waitFor(() =>
      expect(setup.daemon.responsesTo(0)).toEqual([
        {
          answers: {
            color: { answers: ['Blue'] },
            token: { answers: ['None of the above', 'user_note: hunter2'] },
          },
        },
      ]),
    );
  });

  it('[R12.16] a FIFO as daemon.pid: the bridge attaches without reading it, and carries the question', async () => {
    const setup = await rig(undefined, (daemon) => {
      const pidFile = daemonPidFile(daemon.codexHome);
      rmSync(pidFile);
      // Its writer would hand a reader a pid: a bridge that opened the FIFO would log it.
      const fifo = makeFifoWithWriter(pidFile, JSON.stringify({ pid: 4242, processStartTime: 'fifo' }));
      cleanups.push(() => fifo.remove());
    });
    await bridgeJoined(setup);
    expect(setup.logs.filter((line) => line.includes('attached to the Codex daemon'))).toEqual([
      `codex ${setup.daemon.codexHome}: attached to the Codex daemon`,
    ]);
    setup.daemon.ask(THREAD, 0, CODEX_PROMPT_METHODS.question, requestUserInputParams);
    await setup.remote.next((record) => record.sessionId === THREAD);
  });

  it('[R12.13] a secret answer reaches Codex and no file: not the bridge’s log or status, not the host’s data dir', async () => {
    const setup = await rig();
    await bridgeJoined(setup);
    setup.daemon.ask(THREAD, 0, CODEX_PROMPT_METHODS.question, requestUserInputParams);
    const card = await setup.remote.next((record) => record.sessionId === THREAD);
    const secret = 'hunter2-5d09aa71';
    await setup.remote.respond(card.requestId, {
      action: 'accept',
      content: { answers: { 'Which color?': 'Blue', 'Paste a token?': secret } },
    });
    await vi.waitFor(() =>
      expect(setup.daemon.responsesTo(0)).toEqual([
        {
          answers: { color: { answers: ['Blue'] }, token: { answers: ['None of the above', `user_note: ${secret}`] } },
        },
      ]),
    );
    await vi.waitFor(() => expect(setup.host.registry.projection.get(card.requestId)?.deliveredAt).toBeDefined());
    await setup.bridge.stop();
    await setup.host.close();
    const dirs = [setup.hostDir, setup.dataDir, setup.daemon.codexHome];
    expect(dirs.flatMap((dir) => filesHolding(dir, [secret]))).toEqual([]);
    expect(setup.logs.join('\n')).not.toContain(secret);
  });

  it('[R18.10] joins a thread that starts later, retrying until its first turn is saved; never a title thread', async () => {
    const setup = await rig([]);
    await vi.waitFor(() => expect(setup.bridge.status()[0]?.state).toBe('attached'));
    setup.daemon.addThread({ id: THREAD, noRolloutTimes: 1 });
    setup.daemon.addThread({ id: OTHER_THREAD, ephemeral: true });
    setup.daemon.notify('thread/started', { thread: { id: THREAD, ephemeral: false, cwd: '/w' } });
    setup.daemon.notify('thread/started', { thread: { id: OTHER_THREAD, ephemeral: true } });
    const resumes = () =>
      setup.daemon.received.filter((message) => message.method === 'thread/resume').map((message) => message.params);
    await vi.waitFor(() => expect(resumes()).toEqual([{ threadId: THREAD, excludeTurns: true }]));
    setup.daemon.notify('thread/status/changed', { threadId: THREAD, status: { type: 'active', activeFlags: [] } });
    await bridgeJoined(setup);
    expect(resumes()).toHaveLength(2);
  });

  it('[R18.13] answered in the terminal first: the card leaves as "Answered in the terminal", a late answer gets a receipt', async () => {
    const setup = await rig();
    await bridgeJoined(setup);
    setup.daemon.ask(THREAD, 3, CODEX_PROMPT_METHODS.command, commandApprovalParams);
    const card = await setup.remote.next((record) => record.sessionId === THREAD);
    expect(card).toMatchObject({ kind: 'approval', toolName: 'exec_command' });
    setup.daemon.resolveElsewhere(THREAD, 3);
    await vi.waitFor(() =>
      expect(setup.remote.withdrawn(card.requestId)).toEqual({
        reason: ANSWERED_IN_TERMINAL_REASON,
        terminalAnswer: {},
      }),
    );
    expect(
      await setup.remote.respond(card.requestId, { action: 'accept', content: { choice: 'accept' } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'withdrawn' },
    });
    expect(setup.daemon.responsesTo(3)).toEqual([]);
  });

  it('[R18.12] the same request id in two threads is two cards, each answered in its own thread', async () => {
    const setup = await rig([
      { id: THREAD, cwd: '/a', name: 'A' },
      { id: OTHER_THREAD, cwd: '/b', name: 'B' },
    ]);
    await bridgeJoined(setup, 2);
    setup.daemon.ask(THREAD, 5, CODEX_PROMPT_METHODS.command, commandApprovalParams);
    const first = await setup.remote.next((record) => record.sessionId === THREAD);
    setup.daemon.resolveElsewhere(THREAD, 5);
    await vi.waitFor(() => expect(setup.remote.withdrawn(first.requestId)).toBeDefined());
    // Codex numbers requests per daemon, but ids are only unique while pending: key by thread too.
    setup.daemon.ask(OTHER_THREAD, 5, CODEX_PROMPT_METHODS.command, commandApprovalParams);
    const second = await setup.remote.next((record) => record.sessionId === OTHER_THREAD);
    expect(second.requestId).not.toBe(first.requestId);
    await setup.remote.respond(second.requestId, { action: 'accept', content: { choice: 'accept' } });
    await vi.waitFor(() => expect(setup.daemon.responsesTo(5)).toEqual([{ decision: 'accept' }]));
  });
});

const SLOW_FLOOD = { timeout: 15_000 };

describe('[R12.17] a daemon flooding the bridge', () => {
  it('[R12.17] the bridge carries at most its bound, the rest stay in the terminal with one log line; the hub’s own agents still ask', async () => {
    // The machine's cap at twice the bound: the bridge's connection may fill its half, no more.
    const relaxed = { capacity: 100_000, refillPerSecond: 100_000 };
    const setup = await rig(undefined, undefined, {
      maxPendingPerMachine: 2 * BRIDGE_PROMPTS_MAX,
      rateLimits: { newInteractions: relaxed, runtime: relaxed },
    });
    await bridgeJoined(setup);
    const flood = 3 * BRIDGE_PROMPTS_MAX;
    for (let index = 0; index < flood; index += 1)
      setup.daemon.ask(THREAD, 1_000 + index, CODEX_PROMPT_METHODS.question, requestUserInputParams);
    const local = () => setup.host.registry.projection.pendingCount(setup.host.registry.localMachine.id);
    await vi.waitFor(() => {
      expect(setup.logs.filter((line) => line.includes("stay in Codex's terminal"))).toHaveLength(1);
      expect(local()).toBe(BRIDGE_PROMPTS_MAX);
      expect(setup.bridge.status()[0]?.pending).toBe(BRIDGE_PROMPTS_MAX);
      // Three hundred prompts and a hundred announces through real sockets: more than vi.waitFor's default
      // second while the build runs beside the unit suite.
    }, SLOW_FLOOD);
    // Nothing more is on its way, nothing was answered for Codex, and the log said it once.
    expect(setup.logs.filter((line) => line.includes("Codex's terminal"))).toHaveLength(1);
    expect(setup.daemon.received.filter((message) => message.method === undefined && 'result' in message)).toEqual([]);
    // The hub's own MCP server still asks.
    const mcp = await connectRuntime(setup.host.url, TEST_TOKEN, 'mcp');
    expect(await mcp.socket.emitWithAck('announce', questionRequest())).toMatchObject({ ok: true, status: 'pending' });
    // A card answered on the phone goes to Codex as ever.
    const card = await setup.remote.next((record) => record.sessionId === THREAD);
    await setup.remote.respond(card.requestId, {
      action: 'accept',
      content: { answers: { 'Which color?': 'Blue', 'Paste a token?': 'x' } },
    });
    await vi.waitFor(() => expect(setup.daemon.received.filter((message) => 'result' in message)).toHaveLength(1));
    expect(local()).toBe(BRIDGE_PROMPTS_MAX);
  });
});

describe('[R12.12] an MCP server’s form through Codex', () => {
  it('[R12.12] a schema with a pattern where the phone does not look stays in Codex’s terminal; a plain form still comes', async () => {
    const setup = await rig();
    await bridgeJoined(setup);
    HOSTILE_PATTERN_FORMS.forEach((form, id) =>
      setup.daemon.ask(
        THREAD,
        id,
        CODEX_PROMPT_METHODS.elicitation,
        codexElicitationParams(THREAD, form.requestedSchema),
      ),
    );
    await vi.waitFor(
      () =>
        expect(setup.logs.filter((line) => line.includes("left to Codex's terminal"))).toHaveLength(
          HOSTILE_PATTERN_FORMS.length,
        ),
      { timeout: 10_000 },
    );
    expect(setup.logs).toContainEqual(expect.stringContaining('the form has a rule the phone cannot check (allOf)'));
    expect(setup.logs).toContainEqual(
      expect.stringContaining('"picks"\'s items have a rule the phone cannot check (pattern)'),
    );
    const plain = { type: 'object', properties: { note: { type: 'string' } } };
    setup.daemon.ask(THREAD, 99, CODEX_PROMPT_METHODS.elicitation, codexElicitationParams(THREAD, plain));
    const card = await setup.remote.next((record) => record.sessionId === THREAD);
    expect(card).toMatchObject({ kind: 'form', input: { serverName: 'hostile', mode: 'form' } });
    expect(setup.remote.pending().filter((record) => record.sessionId === THREAD)).toHaveLength(1);
    HOSTILE_PATTERN_FORMS.forEach((_form, id) => expect(setup.daemon.responsesTo(id)).toEqual([]));
  });
});

describe('[R18.11] auto-resolution', () => {
  it("[R18.11] Askaway's auto-resolution answers a Codex question only when the person turned it on, and never an approval", async () => {
    const setup = await rig();
    await bridgeJoined(setup);
    const view = (requestId: string) =>
      setup.host.registry.snapshot().pending.find((candidate) => candidate.requestId === requestId);
    setup.daemon.ask(THREAD, 0, CODEX_PROMPT_METHODS.question, requestUserInputParams);
    const blocking = await setup.remote.next((record) => record.kind === 'question');
    expect(view(blocking.requestId)?.autoResolution).toEqual({ status: 'disabled' });
    await setup.host.registry.updatePreferences({
      askUserQuestionAutoResolutionEnabled: true,
      askUserQuestionAutoResolutionTimeoutMs: 3_600_000,
    });
    await vi.waitFor(() => expect(view(blocking.requestId)?.autoResolution.status).toBe('scheduled'));
    setup.daemon.ask(THREAD, 1, CODEX_PROMPT_METHODS.command, commandApprovalParams);
    const approval = await setup.remote.next((record) => record.kind === 'approval');
    expect(view(approval.requestId)?.autoResolution).toEqual({ status: 'disabled' });
  });
});

describe('[R18.14] reconnecting', () => {
  it('[R18.14] a dropped connection keeps the card; after the re-join the answer reaches the same daemon', async () => {
    const setup = await rig();
    await bridgeJoined(setup);
    setup.daemon.ask(THREAD, 1, CODEX_PROMPT_METHODS.command, commandApprovalParams);
    const card = await setup.remote.next((record) => record.sessionId === THREAD);
    setup.daemon.dropClients();
    await vi.waitFor(() => expect(setup.daemon.received.filter((m) => m.method === 'initialize')).toHaveLength(2));
    await bridgeJoined(setup);
    expect(setup.remote.withdrawn(card.requestId)).toBeUndefined();
    await setup.remote.respond(card.requestId, { action: 'decline' });
    await vi.waitFor(() => expect(setup.daemon.responsesTo(1)).toEqual([{ decision: 'decline' }]));
  });

  it('[R18.14] a restarted daemon: the lost prompt’s card leaves with the reason, the bridge re-joins, the new prompt is one card', async () => {
    const setup = await rig();
    await bridgeJoined(setup);
    setup.daemon.ask(THREAD, 0, CODEX_PROMPT_METHODS.question, requestUserInputParams);
    const lost = await setup.remote.next((record) => record.sessionId === THREAD);
    await setup.daemon.restart();
    await vi.waitFor(() => expect(setup.remote.withdrawn(lost.requestId)).toEqual({ reason: DAEMON_GONE_REASON }));
    await bridgeJoined(setup);
    // A new daemon numbers its requests from 0 again.
    setup.daemon.ask(THREAD, 0, CODEX_PROMPT_METHODS.question, requestUserInputParams);
    const again = await setup.remote.next(
      (record) => record.sessionId === THREAD && record.requestId !== lost.requestId,
    );
    expect(setup.remote.pending().filter((record) => record.sessionId === THREAD)).toHaveLength(1);
    await setup.remote.respond(again.requestId, { action: 'accept', content: { answers: { 'Which size?': 'Small' } } });
    await vi.waitFor(() =>
      expect(setup.daemon.responsesTo(0)).toEqual([{ answers: { size: { answers: ['Small'] } } }]),
    );
  });

  it('[R18.14] a daemon that stopped: its cards leave at once, and the bridge waits for the next one', async () => {
    const setup = await rig();
    await bridgeJoined(setup);
    setup.daemon.ask(THREAD, 2, CODEX_PROMPT_METHODS.command, commandApprovalParams);
    const card = await setup.remote.next((record) => record.sessionId === THREAD);
    await setup.daemon.stop({ dead: true });
    await vi.waitFor(() => expect(setup.remote.withdrawn(card.requestId)).toEqual({ reason: DAEMON_GONE_REASON }));
    await vi.waitFor(() => expect(setup.bridge.status()[0]).toMatchObject({ state: 'waiting', threads: 0 }));
    await setup.daemon.restart();
    await bridgeJoined(setup);
  });

  it('[R18.14] askaway status reads what the bridge serves; a second bridge for the same home stays away', async () => {
    const setup = await rig();
    await bridgeJoined(setup);
    await vi.waitFor(() =>
      expect(readBridgeStatuses(setup.dataDir)).toEqual([
        expect.objectContaining({ codexHome: setup.daemon.codexHome, state: 'attached', threads: 1, owner: 'test' }),
      ]),
    );
    const host = await startTestHost();
    const provider = runtimeClientProvider({ url: host.url, token: host.token });
    cleanups.push(() => provider.close());
    const logs: string[] = [];
    const second = bridgeFor(cleanups, setup.daemon, provider, setup.dataDir, logs, 'second');
    await vi.waitFor(() => expect(logs.join('\n')).toMatch(/already bridged by test/));
    expect(second.status()[0]?.state).toBe('waiting');
    expect(setup.daemon.clients()).toBe(1);
  });
});
