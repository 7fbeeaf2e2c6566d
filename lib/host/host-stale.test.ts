import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type HostEvent, type InteractionRequest } from '../contracts';
import { InteractionRegistry } from './registry';
import { DEFAULT_STALE_AFTER_MS, formatDuration, staleReason, startStaleSweep } from './stale-sweep';
import { MemoryEventStore } from './store/memory-event-store';
import { SqliteEventStore } from './store/sqlite-event-store';
import { closeAllClients, connectRemote, connectRuntime, type RuntimeClient } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { questionRequest } from './test-support/fixtures';
import { joinMachine } from './test-support/machines';
import { closeAllHosts, startTestHost, tempDir, TEST_TOKEN } from './test-support/test-host';
import { waitForIo } from './test-support/wait-for-io';

const STALE_AFTER_MS = 1_500;
const SWEEP_MS = 100;
const FAST = { staleAfterMs: STALE_AFTER_MS, staleSweepIntervalMs: SWEEP_MS };

const stops: (() => void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  vi.useRealTimers();
  closeAllClients();
  await closeAllHosts();
});

/**
 * The host's clock and its sweep run on fake time (sockets stay real): the window passes in an instant,
 * and every sweep sees the 100 ms since the last one, as on an awake host.
 */
function fakeHostClock(): void {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
}

let announceCount = 0;

/**
 * Lets `ms` of host time pass one sweep at a time. Each runtime in `alive` keeps waiting meanwhile:
 * it re-announces with a fresh protocol id (R8.1) after every sweep, and the host has it before the next.
 */
async function elapse(ms: number, ...alive: [RuntimeClient, InteractionRequest][]): Promise<void> {
  for (let passed = 0; passed < ms; passed += SWEEP_MS) {
    vi.advanceTimersByTime(SWEEP_MS);
    for (const [runtime, request] of alive) {
      announceCount += 1;
      await runtime.emitWithAck('announce', {
        ...request,
        protocolRequestId: `${request.protocolRequestId}-${announceCount}`,
      });
    }
  }
}

const withdrawnEvent = (events: readonly HostEvent[], requestId: string) =>
  events.find((event) => event.type === 'interaction.withdrawn' && event.requestId === requestId);

describe('stale interactions (runtime died without withdrawing)', () => {
  it('[R8.1][R10.2] withdraws a question whose runtime stopped announcing, logs it, and tells remotes', async () => {
    fakeHostClock();
    const host = await startTestHost(FAST);
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
    const request = questionRequest();
    const announcedAt = Date.now();
    await runtime.socket.emitWithAck('announce', request);

    await elapse(STALE_AFTER_MS - SWEEP_MS);
    expect(host.registry.projection.get(request.requestId)?.status).toBe('pending');
    await elapse(SWEEP_MS);
    await waitForIo(() => expect(withdrawnEvent(remote.events, request.requestId)).toBeDefined());
    expect(withdrawnEvent(remote.events, request.requestId)).toMatchObject({
      reason: 'The agent stopped waiting (no contact for 1.5 seconds)',
    });
    const logged = (await host.registry.readSince(0, 100)).filter((event) => event.type === 'interaction.withdrawn');
    expect(logged).toHaveLength(1);
    const view = host.registry.projection.get(request.requestId);
    expect(view).toMatchObject({ status: 'withdrawn', withdrawnReason: staleReason(STALE_AFTER_MS) });
    expect(Date.parse(view?.withdrawnAt ?? '')).toBeGreaterThanOrEqual(announcedAt + STALE_AFTER_MS);
    expect(host.registry.snapshot().pending).toEqual([]);
    // A runtime that was only slow, not dead, learns the outcome when it re-announces.
    expect(await runtime.socket.emitWithAck('announce', { ...request, protocolRequestId: 'late' })).toEqual({
      ok: true,
      status: 'withdrawn',
    });
  });

  it('[R8.1] keeps a question whose runtime keeps announcing, even across a reconnect', async () => {
    fakeHostClock();
    const host = await startTestHost(FAST);
    const first = await connectRuntime(host.url, TEST_TOKEN, 'alive');
    const silentRuntime = await connectRuntime(host.url, TEST_TOKEN, 'dead');
    const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
    const alive = questionRequest();
    const silent = questionRequest();
    await first.socket.emitWithAck('announce', alive);
    await silentRuntime.socket.emitWithAck('announce', silent);

    // Announced together: had `alive` gone quiet it would be swept in the same pass as `silent`.
    await elapse(STALE_AFTER_MS, [first.socket, alive]);
    await waitForIo(() => expect(withdrawnEvent(remote.events, silent.requestId)).toBeDefined());
    expect(host.registry.projection.get(alive.requestId)?.status).toBe('pending');

    // The runtime drops for half the window and comes back on a new socket.
    first.socket.disconnect();
    await elapse(STALE_AFTER_MS / 2);
    const again = await connectRuntime(host.url, TEST_TOKEN, 'alive');
    const secondRound = questionRequest();
    await silentRuntime.socket.emitWithAck('announce', secondRound);
    await elapse(STALE_AFTER_MS, [again.socket, alive]);
    await waitForIo(() => expect(withdrawnEvent(remote.events, secondRound.requestId)).toBeDefined());
    expect(host.registry.projection.get(alive.requestId)?.status).toBe('pending');

    // Once it stops announcing for good, it goes too.
    await elapse(STALE_AFTER_MS);
    await waitForIo(() => expect(withdrawnEvent(remote.events, alive.requestId)).toBeDefined());
  });

  it('[R8.1][R17.6] a joined machine that never comes back has its questions withdrawn after the window; one that returns keeps the same request id', async () => {
    fakeHostClock();
    const host = await startTestHost(FAST);
    const laptop = await joinMachine(host, 'laptop');
    const desktop = await joinMachine(host, 'desktop');
    const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
    // The same request id on both machines: the sweep must tell them apart.
    const request = questionRequest({ requestId: 'toolu_same' });
    const gone = await connectRuntime(host.url, laptop.credential, 'laptop');
    const staying = await connectRuntime(host.url, desktop.credential, 'desktop');
    await gone.socket.emitWithAck('announce', request);
    await staying.socket.emitWithAck('announce', request);
    gone.socket.disconnect();
    const goneKey = `${laptop.machine.id}:toolu_same`;
    const stayingKey = `${desktop.machine.id}:toolu_same`;

    // Dropped, the laptop's question waits for it the whole window…
    await elapse(STALE_AFTER_MS - SWEEP_MS, [staying.socket, request]);
    expect(host.registry.projection.get(goneKey)?.status).toBe('pending');
    // …and goes once the window has passed without it; the desktop's, announced all along, stays.
    await elapse(SWEEP_MS, [staying.socket, request]);
    await waitForIo(() => expect(withdrawnEvent(remote.events, goneKey)).toBeDefined());
    expect(withdrawnEvent(remote.events, goneKey)).toMatchObject({ reason: staleReason(STALE_AFTER_MS) });
    expect(host.registry.projection.get(stayingKey)?.status).toBe('pending');
    expect(host.registry.snapshot().pending.map((view) => view.requestId)).toEqual([stayingKey]);
  });

  it('[R8.1][R10.2] after a restart, restored questions get the full window to be re-announced', async () => {
    const dataDir = tempDir();
    const store = new SqliteEventStore(path.join(dataDir, 'askaway.db'));
    // Announced an hour ago by a registry that is gone: only the time since restart may count.
    const longAgo = new Date(Date.now() - 60 * 60_000);
    const offline = await InteractionRegistry.open({ store, now: () => longAgo });
    const kept = questionRequest();
    const abandoned = questionRequest();
    await offline.announce(kept, 'gone');
    await offline.announce(abandoned, 'gone');
    offline.stop();
    await store.close();

    fakeHostClock();
    const restartedAt = Date.now();
    const host = await startTestHost({ dataDir, ...FAST });
    expect(
      host.registry
        .snapshot()
        .pending.map((view) => view.requestId)
        .sort(),
    ).toEqual([kept.requestId, abandoned.requestId].sort());
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
    expect(await runtime.socket.emitWithAck('announce', { ...kept, protocolRequestId: 'after-restart' })).toMatchObject(
      { status: 'pending' },
    );

    await elapse(STALE_AFTER_MS - SWEEP_MS, [runtime.socket, kept]);
    expect(host.registry.projection.get(abandoned.requestId)?.status).toBe('pending');
    await elapse(SWEEP_MS, [runtime.socket, kept]);
    await waitForIo(() => expect(withdrawnEvent(remote.events, abandoned.requestId)).toBeDefined());
    const withdrawnAt = Date.parse(host.registry.projection.get(abandoned.requestId)?.withdrawnAt ?? '');
    expect(withdrawnAt).toBeGreaterThanOrEqual(restartedAt + STALE_AFTER_MS);
    expect(host.registry.projection.get(kept.requestId)?.status).toBe('pending');
  });
});

describe('stale sweep timing', () => {
  async function clockedRegistry() {
    let clock = Date.parse('2025-01-01T00:00:00Z');
    const registry = await InteractionRegistry.open({ store: new MemoryEventStore(), now: () => new Date(clock) });
    return { registry, advance: (ms: number) => (clock += ms), now: () => clock };
  }

  it('[R8.1] a silent runtime survives anything shorter than the window (a 30 s outage keeps its question)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { registry, advance, now } = await clockedRegistry();
    stops.push(startStaleSweep(registry, { staleAfterMs: DEFAULT_STALE_AFTER_MS, intervalMs: 15_000, now }));
    const request = questionRequest();
    await registry.announce(request, 'socket');
    for (let elapsed = 0; elapsed < DEFAULT_STALE_AFTER_MS - 15_000; elapsed += 15_000) {
      advance(15_000);
      vi.advanceTimersByTime(15_000);
    }
    await registry.settled();
    expect(registry.projection.get(request.requestId)?.status).toBe('pending');
    advance(15_000);
    vi.advanceTimersByTime(15_000);
    await registry.settled();
    expect(registry.projection.get(request.requestId)).toMatchObject({
      status: 'withdrawn',
      withdrawnReason: 'The agent stopped waiting (no contact for 5 minutes)',
    });
  });

  it('[R8.1] a host that was itself asleep gives runtimes a fresh window instead of withdrawing everything', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { registry, advance, now } = await clockedRegistry();
    stops.push(startStaleSweep(registry, { staleAfterMs: 60_000, intervalMs: 1_000, now }));
    const request = questionRequest();
    await registry.announce(request, 'socket');
    // The laptop sleeps for an hour: the next tick comes an hour late.
    advance(60 * 60_000);
    vi.advanceTimersByTime(1_000);
    await registry.settled();
    expect(registry.projection.get(request.requestId)?.status).toBe('pending');
    for (let elapsed = 0; elapsed < 60_000; elapsed += 1_000) {
      advance(1_000);
      vi.advanceTimersByTime(1_000);
    }
    await registry.settled();
    expect(registry.projection.get(request.requestId)?.status).toBe('withdrawn');
  });

  it('formats the window for the reason shown on the phone', () => {
    expect(formatDuration(5 * 60_000)).toBe('5 minutes');
    expect(formatDuration(60_000)).toBe('1 minute');
    expect(formatDuration(90_000)).toBe('1.5 minutes');
    expect(formatDuration(2 * 3_600_000)).toBe('2 hours');
    expect(formatDuration(1_000)).toBe('1 second');
    expect(formatDuration(1_500)).toBe('1.5 seconds');
  });
});
