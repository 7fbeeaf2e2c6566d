import { afterEach, describe, expect, it, vi } from 'vitest';
import { pairDevice } from '../../../host/test-support/devices';
import { closeAllHosts, startTestHost, TEST_TOKEN } from '../../../host/test-support/test-host';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { connectScriptedRemote, type ScriptedRemote } from '../../test-support/scripted-remote';
import { createCopilotBridge, type CopilotBridge } from './bridge';
import { dbSchema, shellPrompt } from './fixtures';
import { copilotPeerCheck } from './peer-process';
import { ANSWERED_IN_TERMINAL_REASON, COPILOT_CLOSED_REASON } from './terminal-answer';
import { FakeCopilot } from './test-support/fake-copilot';
import { COPILOT_NAME, DENY_NOTE, requestIdOf } from './to-interaction';

const opened: { bridge: CopilotBridge; remote?: ScriptedRemote; copilot: FakeCopilot }[] = [];

afterEach(async () => {
  for (const { bridge, remote, copilot } of opened.splice(0)) {
    remote?.close();
    await bridge.close();
    await copilot.close();
  }
  await closeAllHosts();
});

/** A real host and phone, the bridge in-process, Copilot's `--ui-server` port faked. */
async function setup(
  options: { maxHeld?: number; port?: number; hostUrl?: string; waitingLimits?: { count: number; bytes: number } } = {},
) {
  const host = await startTestHost();
  const remote = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
  const copilot = new FakeCopilot();
  if (options.port === undefined) await copilot.listen();
  else copilot.port = options.port;
  const logs: string[] = [];
  const bridge = createCopilotBridge({
    runtime: runtimeClientProvider({ url: options.hostUrl ?? host.url, token: TEST_TOKEN }),
    port: copilot.port,
    cwd: '/home/ada/shop',
    log: (line) => logs.push(line),
    reaskRetryMs: 50,
    // The fake port is this process's own socket: the real check, passing.
    verifyPeer: (localPort) => copilotPeerCheck(process.pid, copilot.port)(localPort),
    ...(options.maxHeld ? { maxHeld: options.maxHeld } : {}),
    ...(options.waitingLimits ? { waitingLimits: options.waitingLimits } : {}),
  });
  opened.push({ bridge, remote, copilot });
  return { host, remote, copilot, bridge, logs };
}

const byRequest = (copilotId: string) => (record: { requestId: string }) => record.requestId === requestIdOf(copilotId);

describe("[R18.30][R18.31] the bridge on Copilot's --ui-server port", () => {
  it('[R18.30][R18.31][R18.32] a command goes to the phone as an approval; Allow once goes back as approve-once', async () => {
    const { remote, copilot, bridge, logs } = await setup();
    expect(await bridge.attached).toBe(true);
    await vi.waitFor(() => expect(copilot.follows('session-1')).toBe(true));
    // Resumed as a second client: the TUI is left as it is.
    expect(copilot.calls.find((call) => call.method === 'session.resume')?.params).toEqual({
      sessionId: 'session-1',
      disableResume: true,
      continuePendingWork: true,
    });
    const id = copilot.askPermission(shellPrompt());
    const record = await remote.next(byRequest(id));
    expect(record).toMatchObject({
      kind: 'approval',
      agent: { kind: 'copilot', name: COPILOT_NAME, version: '1.0.102' },
      sessionId: 'session-1',
      toolUseId: 'call_sub',
      context: { cwd: '/home/ada/shop', openInTerminal: true, declineNote: DENY_NOTE },
      input: { subject: 'command', command: 'touch sub.txt', reason: 'Runs touch sub.txt' },
    });
    await remote.respond(record.requestId, { action: 'accept', content: { choice: 'once' } });
    await vi.waitFor(() =>
      expect(
        copilot.calls.find((call) => call.method === 'session.permissions.handlePendingPermissionRequest')?.params,
      ).toEqual({
        sessionId: 'session-1',
        requestId: id,
        result: { kind: 'approve-once' },
      }),
    );
    // Copilot's own `permission.completed` echo of that answer is no terminal answer.
    await vi.waitFor(() => expect(logs).toContain(`askaway: ${id} approve-once on the phone`));
    expect(remote.withdrawn(record.requestId)).toBeUndefined();
  });

  it("[R18.32] Copilot's session choice and a denial with feedback go back as Copilot takes them", async () => {
    const { remote, copilot, bridge } = await setup();
    await bridge.attached;
    await vi.waitFor(() => expect(copilot.follows('session-1')).toBe(true));
    const a = copilot.askPermission(shellPrompt());
    await remote.respond((await remote.next(byRequest(a))).requestId, {
      action: 'accept',
      content: { choice: 'session' },
    });
    const b = copilot.askPermission(shellPrompt({ toolCallId: 'call_b' }));
    await remote.respond((await remote.next(byRequest(b))).requestId, {
      action: 'decline',
      message: 'use a temp dir instead',
    });
    const answers = () =>
      copilot.calls
        .filter((call) => call.method === 'session.permissions.handlePendingPermissionRequest')
        .map((call) => call.params.result);
    await vi.waitFor(() =>
      expect(answers()).toEqual([
        { kind: 'approve-for-session', approval: { kind: 'commands', commandIdentifiers: ['touch'] } },
        { kind: 'reject', feedback: 'use a temp dir instead' },
      ]),
    );
  });

  it('[R18.33] an ask_user form goes to the phone through the shared form code; its values go back as typed', async () => {
    const { remote, copilot, bridge } = await setup();
    await bridge.attached;
    await vi.waitFor(() => expect(copilot.follows('session-1')).toBe(true));
    const id = copilot.askForm('Which database?', dbSchema);
    const record = await remote.next(byRequest(id));
    expect(record).toMatchObject({
      kind: 'form',
      toolName: 'ask_user',
      input: { serverName: COPILOT_NAME, message: 'Which database?', mode: 'form' },
    });
    expect(
      (record.input as { fields: { name: string; required: boolean }[] }).fields.map((field) => [
        field.name,
        field.required,
      ]),
    ).toEqual([
      ['db', false],
      ['notes', false],
    ]);
    await remote.respond(record.requestId, {
      action: 'accept',
      content: { values: { db: 'SQLite', notes: 'from phone' } },
    });
    await vi.waitFor(() =>
      expect(copilot.calls.find((call) => call.method === 'session.ui.handlePendingElicitation')?.params).toEqual({
        sessionId: 'session-1',
        requestId: id,
        result: { action: 'accept', content: { db: 'SQLite', notes: 'from phone' } },
      }),
    );
  });

  it("[R18.34] answered in the terminal first: the card leaves as answered there, with what was chosen; a late phone answer is shown as the terminal's", async () => {
    const { host, remote, copilot, bridge, logs } = await setup();
    await bridge.attached;
    await vi.waitFor(() => expect(copilot.follows('session-1')).toBe(true));
    const first = copilot.askPermission(shellPrompt());
    const card = await remote.next(byRequest(first));
    copilot.answerInTerminal(first, { kind: 'denied-interactively-by-user', feedback: 'not now' });
    await vi.waitFor(() =>
      expect(remote.withdrawn(card.requestId)).toEqual({
        reason: ANSWERED_IN_TERMINAL_REASON,
        terminalAnswer: { response: { action: 'decline', message: 'not now' } },
      }),
    );
    const form = copilot.askForm('Which database?', dbSchema);
    const formCard = await remote.next(byRequest(form));
    copilot.answerInTerminal(form, { action: 'accept', content: { db: 'Postgres' } });
    await vi.waitFor(() =>
      expect(remote.withdrawn(formCard.requestId)).toEqual({
        reason: ANSWERED_IN_TERMINAL_REASON,
        terminalAnswer: { response: { action: 'accept', content: { values: { db: 'Postgres' } } } },
      }),
    );

    // The race the other way: the TUI took its answer just before the phone's reached Copilot.
    const race = copilot.askPermission(shellPrompt({ toolCallId: 'call_race' }));
    const raceCard = await remote.next(byRequest(race));
    copilot.pending.delete(race);
    await remote.respond(raceCard.requestId, { action: 'accept', content: { choice: 'once' } });
    await vi.waitFor(() =>
      expect(logs).toContain(`askaway: ${race}: the phone's answer came late, already answered at the terminal`),
    );
    await vi.waitFor(() =>
      expect(host.registry.projection.get(raceCard.requestId)).toMatchObject({
        status: 'withdrawn',
        withdrawnReason: ANSWERED_IN_TERMINAL_REASON,
      }),
    );
  });

  it('[R18.30][R18.35] it waits for the port, follows the session the TUI switches to, finds permissions already waiting, labels subagents', async () => {
    const port = await FakeCopilot.unusedPort();
    const { remote, copilot, bridge } = await setup({ port });
    // Copilot asked before the bridge got in: `pendingRequests` lists it.
    const early = copilot.askPermission(shellPrompt({ toolCallId: 'call_early' }), { silent: true });
    await copilot.listen();
    expect(await bridge.attached).toBe(true);
    await remote.next(byRequest(early));

    copilot.switchTo('session-2');
    await vi.waitFor(() => expect(copilot.follows('session-2')).toBe(true));
    copilot.event('session-2', 'session.title_changed', { title: 'Fix the build' }, true);
    copilot.event(
      'session-2',
      'subagent.started',
      { toolCallId: 'call_task', agentName: 'task', agentDisplayName: 'helper', agentType: 'task' },
      false,
      'agent-7',
    );
    const sub = copilot.askPermission(shellPrompt({ toolCallId: 'call_inner' }), {
      sessionId: 'session-2',
      agentId: 'agent-7',
    });
    const record = await remote.next(byRequest(sub));
    expect(record).toMatchObject({
      sessionId: 'session-2',
      context: { sessionTitle: 'Fix the build' },
      origin: {
        kind: 'subagent',
        label: 'helper',
        agentId: 'agent-7',
        agentType: 'task',
        parentSessionId: 'session-2',
        depth: 1,
      },
    });
  });

  it('[R18.35] only so many prompts are held on the phone; a hook-settled one is skipped; Copilot closing withdraws the rest', async () => {
    const { remote, copilot, bridge, logs } = await setup({ maxHeld: 2 });
    await bridge.attached;
    await vi.waitFor(() => expect(copilot.follows('session-1')).toBe(true));
    copilot.event('session-1', 'permission.requested', {
      requestId: 'hooked',
      promptRequest: shellPrompt(),
      resolvedByHook: true,
    });
    const ids = [0, 1, 2].map((n) => copilot.askPermission(shellPrompt({ toolCallId: `call_${n}` })));
    const records = [await remote.next(byRequest(ids[0] ?? '')), await remote.next(byRequest(ids[1] ?? ''))];
    await vi.waitFor(() =>
      expect(logs).toContain(`askaway: ${ids[2]} stays in the terminal: 2 prompts are on the phone already`),
    );
    expect(bridge.open().sort()).toEqual([ids[0], ids[1]].sort());
    await copilot.close();
    for (const record of records)
      await vi.waitFor(() => expect(remote.withdrawn(record.requestId)?.reason).toBe(COPILOT_CLOSED_REASON));
  });

  it('[R18.30] with no hub to reach, Copilot is left alone: its TUI asks as ever, the bridge only waits', async () => {
    const { copilot, bridge } = await setup({ hostUrl: 'http://127.0.0.1:9' });
    expect(await bridge.attached).toBe(true);
    await vi.waitFor(() => expect(copilot.follows('session-1')).toBe(true));
    const id = copilot.askPermission(shellPrompt());
    await vi.waitFor(() => expect(bridge.open()).toEqual([id]));
    copilot.answerInTerminal(id, { kind: 'approved' });
    await vi.waitFor(() => expect(bridge.open()).toEqual([]));
    expect(copilot.calls.some((call) => call.method === 'session.permissions.handlePendingPermissionRequest')).toBe(
      false,
    );
  });

  it('[R12.19] the prompts kept to ask again are bounded: past the limit the oldest stay in the terminal, with one log line', async () => {
    // A hub that refuses this connection's prompts past two waiting, until they are answered (R12.7).
    const hub = await startTestHost({ maxPendingPerMachine: 3 });
    const { remote, copilot, bridge, logs } = await setup({
      hostUrl: hub.url,
      waitingLimits: { count: 3, bytes: 64 * 1024 * 1024 },
    });
    const phone = await connectScriptedRemote(hub.url, (await pairDevice(hub)).credential);
    try {
      expect(await bridge.attached).toBe(true);
      await vi.waitFor(() => expect(copilot.follows('session-1')).toBe(true));
      const ids = [0, 1, 2, 3, 4, 5].map((n) => copilot.askPermission(shellPrompt({ toolCallId: `call_${n}` })));
      const shown = [await phone.next(byRequest(ids[0] ?? '')), await phone.next(byRequest(ids[1] ?? ''))];
      await vi.waitFor(() =>
        expect(logs.filter((line) => line.includes('and older prompts are left to the terminal'))).toEqual([
          `askaway: ${ids[2]} and older prompts are left to the terminal: more than the bridge keeps wait for the hub`,
        ]),
      );
      // Each refused prompt is said once, not at every try again.
      expect(logs.filter((line) => line.includes('stays in the terminal for now'))).toHaveLength(4);
      // Room again on the hub: the oldest kept are asked again; the one dropped is not.
      for (const record of shown)
        await phone.respond(record.requestId, { action: 'accept', content: { choice: 'once' } });
      await phone.next(byRequest(ids[3] ?? ''));
      await phone.next(byRequest(ids[4] ?? ''));
      expect(phone.pending().map((record) => record.requestId)).toEqual([
        requestIdOf(ids[3] ?? ''),
        requestIdOf(ids[4] ?? ''),
      ]);
      expect(remote.pending()).toEqual([]);
    } finally {
      phone.close();
    }
  });
});
