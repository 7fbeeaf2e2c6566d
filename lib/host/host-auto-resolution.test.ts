import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InteractionRegistry } from './registry';
import { SqliteEventStore } from './store/sqlite-event-store';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { permissionRequest, questionRequest } from './test-support/fixtures';
import { closeAllHosts, startTestHost, tempDir, TEST_TOKEN } from './test-support/test-host';
import { expectItem } from '../core/test-support/expect-item';
import { type InteractionRequest } from '../contracts';

afterEach(async () => {
  vi.useRealTimers();
  closeAllClients();
  await closeAllHosts();
});

const FIRE_WAIT = { timeout: 6_000, interval: 20 };

/**
 * Fake time for the host's deadline timer and clock, installed before the host starts so both use it.
 * It still runs with real time (sockets keep working); a test jumps it to a deadline.
 */
function fakeHostClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
}

/** A host on the fake clock with auto-resolution on after `timeoutMs`, a runtime and a phone. */
async function autoResolvingHost(timeoutMs: number) {
  fakeHostClock();
  const host = await startTestHost();
  const runtime = await connectRuntime(host.url, TEST_TOKEN);
  const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
  await remote.socket.emitWithAck('preferences:update', {
    askUserQuestionAutoResolutionEnabled: true,
    askUserQuestionAutoResolutionTimeoutMs: timeoutMs,
  });
  return { host, runtime, remote };
}

describe('auto-resolution (R6)', () => {
  it('[R6.4][R6.3] resolves a question as accept with answers {} at its absolute deadline, and logs it', async () => {
    const { host, runtime, remote } = await autoResolvingHost(1_500);
    const request = questionRequest();
    const ack = await runtime.socket.emitWithAck('announce', request);
    if (!ack.ok || ack.status !== 'pending' || ack.autoResolution.status !== 'scheduled')
      throw new Error(`unexpected ack ${JSON.stringify(ack)}`);
    const { deadlineAt, scheduledAt } = ack.autoResolution;
    expect(Date.parse(deadlineAt) - Date.parse(scheduledAt)).toBe(1_500);
    expect(runtime.resolved).toEqual([]);

    vi.advanceTimersByTime(1_500);
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1), FIRE_WAIT);
    const resolution = expectItem(runtime.resolved, 0).resolution;
    expect(resolution).toMatchObject({ resolvedBy: 'auto', response: { action: 'accept', content: { answers: {} } } });
    expect(Date.parse(resolution?.resolvedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(deadlineAt));
    const logged = (await host.registry.readSince(0, 100)).filter((event) => event.type === 'interaction.resolved');
    expect(logged).toHaveLength(1);
    await vi.waitFor(() => expect(remote.events.some((event) => event.type === 'interaction.resolved')).toBe(true));
  });

  it('[R6.1][R6.2] toggling the preference updates every pending question at once; plans and permissions never auto-resolve', async () => {
    const host = await startTestHost();
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
    const questions = [
      questionRequest({ sessionId: 's-1' }),
      questionRequest({ sessionId: 's-2' }),
      questionRequest({ sessionId: 's-3' }),
    ];
    const bash = permissionRequest();
    for (const request of [...questions, bash]) await runtime.socket.emitWithAck('announce', request);

    const enabled = await remote.socket.emitWithAck('preferences:update', {
      askUserQuestionAutoResolutionEnabled: true,
      askUserQuestionAutoResolutionTimeoutMs: 60_000,
    });
    expect(enabled).toMatchObject({ ok: true, preferences: { askUserQuestionAutoResolutionEnabled: true } });
    const pending = host.registry.snapshot().pending;
    for (const request of questions) {
      expect(pending.find((view) => view.requestId === request.requestId)?.autoResolution).toMatchObject({
        status: 'scheduled',
        timeoutMs: 60_000,
      });
    }
    expect(pending.find((view) => view.requestId === bash.requestId)?.autoResolution).toEqual({ status: 'disabled' });
    await vi.waitFor(() => expect(runtime.autoResolutions).toHaveLength(3));
    await vi.waitFor(() =>
      expect(
        remote.events.filter(
          (event) => event.type === 'UserInputAutoResolutionUpdated' && event.autoResolution.status === 'scheduled',
        ),
      ).toHaveLength(3),
    );

    await remote.socket.emitWithAck('preferences:update', { askUserQuestionAutoResolutionEnabled: false });
    expect(host.registry.snapshot().pending.every((view) => view.autoResolution.status === 'disabled')).toBe(true);
    await vi.waitFor(() =>
      expect(runtime.autoResolutions.filter((notice) => notice.autoResolution.status === 'disabled')).toHaveLength(3),
    );
    const prefEvents = (await host.registry.readSince(0, 100)).filter((event) => event.type === 'preferences.updated');
    expect(prefEvents).toHaveLength(2);
  });

  it("[R6.1][R18.24] an agent's approval (OpenCode's permission prompt) never gets a deadline, with auto-resolution on", async () => {
    const { host, runtime, remote } = await autoResolvingHost(1_500);
    const approval = permissionRequest({
      kind: 'approval',
      toolName: 'bash',
      agent: { kind: 'opencode', name: 'OpenCode' },
      input: {
        subject: 'command',
        command: 'rm -rf build',
        choices: [
          { id: 'once', label: 'Allow once', effect: 'allow' },
          { id: 'always', label: 'Always allow', effect: 'allow-always' },
          { id: 'reject', label: 'Deny', effect: 'deny' },
        ],
      },
    } as Partial<InteractionRequest>);
    const question = questionRequest();
    expect(await runtime.socket.emitWithAck('announce', approval)).toMatchObject({
      ok: true,
      status: 'pending',
      autoResolution: { status: 'disabled' },
    });
    await runtime.socket.emitWithAck('announce', question);
    await remote.socket.emitWithAck('preferences:update', { askUserQuestionAutoResolutionTimeoutMs: 2_000 });
    vi.advanceTimersByTime(2_000);
    await vi.waitFor(
      () => expect(runtime.resolved.map((notice) => notice.requestId)).toEqual([question.requestId]),
      FIRE_WAIT,
    );
    const view = host.registry.projection.get(approval.requestId);
    expect(view).toMatchObject({ status: 'pending', autoResolution: { status: 'disabled' } });
  });

  it('[R6.4] a deadline that passed while the host was down fires at start', async () => {
    const dataDir = tempDir();
    const store = new SqliteEventStore(path.join(dataDir, 'askaway.db'));
    const longAgo = new Date(Date.now() - 60 * 60_000);
    const offline = await InteractionRegistry.open({ store, now: () => longAgo });
    await offline.updatePreferences({
      askUserQuestionAutoResolutionEnabled: true,
      askUserQuestionAutoResolutionTimeoutMs: 60_000,
    });
    const request = questionRequest();
    await offline.announce(request, 'gone');
    offline.stop();
    await store.close();

    const host = await startTestHost({ dataDir });
    expect(host.registry.snapshot().pending).toEqual([]);
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const ack = await runtime.socket.emitWithAck('announce', { ...request, protocolRequestId: 'after-restart' });
    expect(ack).toMatchObject({ ok: true, status: 'resolved', resolution: { resolvedBy: 'auto' } });
  });

  it('[R6.4][R10.3] a response that arrives after the deadline loses to auto-resolution even before the timer fires', async () => {
    const store = new SqliteEventStore(path.join(tempDir(), 'askaway.db'));
    let clock = new Date();
    // The registry's clock moves; its real timer (an hour out) stands for one delayed by a busy event loop.
    const registry = await InteractionRegistry.open({ store, now: () => clock });
    await registry.updatePreferences({
      askUserQuestionAutoResolutionEnabled: true,
      askUserQuestionAutoResolutionTimeoutMs: 60 * 60_000,
    });
    const request = questionRequest();
    await registry.announce(request, 'runtime-socket');
    clock = new Date(clock.getTime() + 60 * 60_000 + 1);

    const ack = await registry.respond(
      {
        requestId: request.requestId,
        clientResponseId: 'late',
        response: { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } },
      },
      { id: 'phone' },
    );
    expect(ack).toMatchObject({
      ok: true,
      status: 'already-resolved',
      resolution: { resolvedBy: 'auto', response: { content: { answers: {} } } },
    });
    expect((await registry.readSince(0, 100)).filter((event) => event.type === 'interaction.resolved')).toHaveLength(1);
    registry.stop();
    await store.close();
  });

  it('[R6.3][R6.4] a future deadline survives a restart unchanged and fires on time', async () => {
    fakeHostClock();
    const dataDir = tempDir();
    const first = await startTestHost({ dataDir });
    await first.registry.updatePreferences({
      askUserQuestionAutoResolutionEnabled: true,
      askUserQuestionAutoResolutionTimeoutMs: 3_000,
    });
    const request = questionRequest();
    const before = await first.registry.announce(request, 'none');
    await first.close();

    const second = await startTestHost({ dataDir });
    const runtime = await connectRuntime(second.url, TEST_TOKEN);
    const after = await runtime.socket.emitWithAck('announce', { ...request, protocolRequestId: 'fresh' });
    expect(before).toMatchObject({ ok: true, status: 'pending', autoResolution: { status: 'scheduled' } });
    expect(after).toEqual(before);
    expect(runtime.resolved).toEqual([]);
    vi.advanceTimersByTime(3_000);
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1), FIRE_WAIT);
    expect(runtime.resolved[0]).toMatchObject({ protocolRequestId: 'fresh', resolution: { resolvedBy: 'auto' } });
  });
});
