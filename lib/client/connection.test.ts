import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REMOTE_PROTOCOL_VERSION } from '../contracts';
import { expectItem } from '../core/test-support/expect-item';
import { type HostView } from './reduce';
import { connectionHarness } from './test-support/connection-harness';
import { at, deliveredEvent, LOG_ID, PAIRING, questionView, requestedEvent, snapshotOf } from './test-support/fixtures';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse(at(28)) });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets promise callbacks (outbox, cache) run; no timer moves. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('remote connection: state from the host', () => {
  it('[R9.2][R16.1] connects with its own device credential, and a snapshot restores the inbox', async () => {
    const h = connectionHarness();
    h.start();
    expect(h.state().status).toBe('connecting');
    expect(h.sockets).toHaveLength(1);
    expect(h.socket().url).toBe(`${PAIRING.hostUrl}/remote`);

    const auth = h.socket().accept();
    expect(auth).toEqual({ credential: PAIRING.credential, protocolVersion: REMOTE_PROTOCOL_VERSION });
    expect(h.state().status).toBe('connected');

    h.socket().send('snapshot', snapshotOf([questionView('q1')], 7));
    expect(h.state().host).toMatchObject({ hasSnapshot: true, lastSeq: 7, hostVersion: 'test' });
    expect(h.state().host.interactions.get('q1')?.status).toBe('pending');
    // The snapshot's server time is 2 s ahead of this device's clock (R9.9).
    expect(h.state().host.clockOffsetMs).toBe(2_000);
    expect(h.synced).toEqual(['snapshot']);
    expect(h.protocolErrors).toEqual([]);
  });

  it('[R9.2] a reconnect sends lastSeq and applies only what was missed, without a snapshot', () => {
    const h = connectionHarness();
    h.start();
    h.socket().accept();
    h.socket().send('snapshot', snapshotOf([questionView('q1')], 7));
    h.socket().send('events', { events: [requestedEvent(8, questionView('q2'))], serverTime: at(31) });

    h.socket().drop();
    expect(h.state().status).toBe('reconnecting');
    // socket.io reconnects the same socket; the auth is read again.
    const auth = h.socket().accept();
    expect(auth.resume).toEqual({ logId: LOG_ID, lastSeq: 8 });
    h.socket().send('events', {
      // A duplicate of what it had, then what it missed.
      events: [requestedEvent(8, questionView('q2')), requestedEvent(9, questionView('q3'))],
      serverTime: at(35),
    });
    expect(h.sockets).toHaveLength(1);
    expect(h.state().host.lastSeq).toBe(9);
    expect([...h.state().host.interactions.keys()]).toEqual(['q1', 'q2', 'q3']);
    expect(h.synced).toEqual(['snapshot', 'resume']);
    expect(h.socket().pending('snapshot:get')).toEqual([]);
  });

  it('[R9.2] shows the cached host state until the live snapshot, but never resumes from it', async () => {
    const cached: HostView = {
      hasSnapshot: false,
      cached: true,
      seenAt: at(20),
      lastSeq: 0,
      logId: null,
      interactions: new Map([['old', questionView('old')]]),
      preferences: null,
      hostVersion: 'test',
      hostName: null,
      devices: new Map(),
      machines: [],
      pendingTotal: 0,
      pendingCursor: null,
      clockOffsetMs: 0,
    };
    const saved: HostView[] = [];
    const h = connectionHarness({
      hostCache: {
        load: (hostUrl) => Promise.resolve(hostUrl === PAIRING.hostUrl ? cached : null),
        save: (_url, host) => saved.push(host),
        clear: () => Promise.resolve(),
      },
    });
    h.start();
    await settle();
    expect(h.state().host.interactions.has('old')).toBe(true);
    expect(h.socket().accept().resume).toBeUndefined();
    h.socket().send('snapshot', snapshotOf([questionView('q1')], 3));
    expect([...h.state().host.interactions.keys()]).toEqual(['q1']);
    expect(saved).toHaveLength(1);
    expect(expectItem(saved, 0).lastSeq).toBe(3);
  });

  it('[R9.2] a host that refuses the token is not retried; an unreachable one is', () => {
    const h = connectionHarness();
    h.start();
    h.socket().refuse('xhr poll error');
    expect(h.state()).toMatchObject({ status: 'reconnecting', error: { kind: 'unreachable' } });

    h.socket().refuse('unauthorized', { code: 'unauthorized', message: 'bad token' });
    expect(h.state()).toMatchObject({ status: 'refused', error: { kind: 'unauthorized', message: 'bad token' } });
    h.connection.wake();
    expect(h.socket().connectCalls).toBe(0);
    expect(h.protocolErrors).toEqual([]);
  });

  it('[R9.2] a snapshot in another protocol version refuses the host', () => {
    const h = connectionHarness();
    h.start();
    h.socket().accept();
    h.socket().send('snapshot', { ...snapshotOf([], 1), protocolVersion: REMOTE_PROTOCOL_VERSION + 1 });
    expect(h.state()).toMatchObject({ status: 'refused', error: { kind: 'protocol-mismatch' } });
    expect(h.socket().connected).toBe(false);
  });

  it('[R9.2] waking a connected socket proves it alive, and rebuilds it when the host does not answer', async () => {
    const h = connectionHarness();
    h.start();
    h.socket().accept();
    h.socket().send('snapshot', snapshotOf([], 1));

    h.connection.wake();
    const probes = h.socket().pending('snapshot:get');
    expect(probes).toHaveLength(1);
    expectItem(probes, 0).reply({ ok: true, snapshot: snapshotOf([questionView('q1')], 2) });
    expect(h.state().host.lastSeq).toBe(2);

    h.connection.wake();
    expect(h.socket().pending('snapshot:get')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(h.socket().connectCalls).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.socket().connected).toBe(false);
    expect(h.socket().connectCalls).toBe(1);
  });

  it('[R9.8] going offline says so at once; waking reconnects', () => {
    const h = connectionHarness({ isOffline: () => true });
    h.start();
    h.socket().accept();
    h.connection.wentOffline();
    expect(h.state().status).toBe('offline');
    expect(h.socket().connected).toBe(false);
    h.connection.wake();
    expect(h.socket().connectCalls).toBe(1);
  });

  it('[R10.5] a delivered event shows the answer as received by the agent', () => {
    const h = connectionHarness();
    h.start();
    h.socket().accept();
    h.socket().send('snapshot', snapshotOf([{ ...questionView('q1'), status: 'resolved' }], 4));
    h.socket().send('events', { events: [deliveredEvent(5, 'q1')], serverTime: at(41) });
    expect(h.state().host.interactions.get('q1')?.deliveredAt).toBe(at(5));
  });
});

describe('remote connection: the machine list (R17.5)', () => {
  const hub = { id: 'local', name: 'workstation', kind: 'hub' as const, connectedAgents: 1 };
  const laptop = {
    id: '0123456789abcdef',
    name: 'laptop',
    kind: 'joined' as const,
    joinedAt: at(2),
    connectedAgents: 2,
  };

  it('[R17.5] comes with the snapshot, and each machines message replaces it whole', () => {
    const h = connectionHarness();
    h.start();
    h.socket().accept();
    h.socket().send('snapshot', { ...snapshotOf([questionView('q1')], 3), machines: [hub, laptop] });
    expect(h.state().host.machines.map((machine) => machine.name)).toEqual(['workstation', 'laptop']);
    const interactions = h.state().host.interactions;
    h.socket().send('machines', { machines: [hub, { ...laptop, connectedAgents: 0, lastSeenAt: at(40) }] });
    expect(h.state().host.machines[1]).toMatchObject({ name: 'laptop', connectedAgents: 0, lastSeenAt: at(40) });
    // Presence is not an event of the log: the interactions and the resume point stay as they were.
    expect(h.state().host.interactions).toBe(interactions);
    expect(h.state().host.lastSeq).toBe(3);
    h.socket().send('machines', { machines: [hub] });
    expect(h.state().host.machines).toEqual([hub]);
  });

  it('[R10.4][R17.5] a broken machine list is reported and the last good one stays', () => {
    const h = connectionHarness();
    h.start();
    h.socket().accept();
    h.socket().send('snapshot', { ...snapshotOf([], 3), machines: [hub, laptop] });
    h.socket().send('machines', { machines: [{ ...laptop, connectedAgents: -1 }] });
    expect(h.protocolErrors).toEqual([
      { event: 'machines', reply: false, rule: expect.stringMatching(/^machines\[0\]\.connectedAgents/) },
    ]);
    expect(h.state().host.machines).toEqual([hub, laptop]);
  });
});

describe('remote connection: malformed host messages are reported, never dropped silently', () => {
  it('[R10.4] a broken event batch is logged with the rule it broke, and a snapshot replaces the guesswork', () => {
    const h = connectionHarness();
    h.start();
    h.socket().accept();
    h.socket().send('snapshot', snapshotOf([questionView('q1')], 7));
    const before = h.state().host;

    h.socket().send('events', { events: [{ seq: 8, at: at(8), type: 'interaction.exploded' }], serverTime: at(32) });
    expect(h.state().host).toBe(before);
    expect(h.protocolErrors).toHaveLength(1);
    expect(h.protocolErrors[0]).toEqual({
      event: 'events',
      reply: false,
      rule: expect.stringMatching(/^events\[0\]\.type: expected one of interaction\.requested, /),
    });
    expect(h.logs).toEqual([expect.stringContaining("malformed 'events' message: events[0].type: expected one of")]);

    // Until a snapshot arrives, lastSeq no longer proves anything: a reconnect asks for a snapshot.
    const resync = h.socket().pending('snapshot:get');
    expect(resync).toHaveLength(1);
    h.socket().drop();
    expect(h.socket().accept().resume).toBeUndefined();
    h.socket().send('snapshot', snapshotOf([], 9));
    h.socket().drop();
    expect(h.socket().accept().resume).toEqual({ logId: LOG_ID, lastSeq: 9 });
  });

  it('[R10.4] a broken snapshot is reported and shown as an error', () => {
    const h = connectionHarness();
    h.start();
    h.socket().accept();
    h.socket().send('snapshot', { ...snapshotOf([], 1), seq: 'one' });
    expect(h.protocolErrors).toEqual([{ event: 'snapshot', reply: false, rule: 'seq: expected number' }]);
    expect(h.state()).toMatchObject({ status: 'connected', error: { kind: 'other' } });
    expect(h.state().host.hasSnapshot).toBe(false);
  });

  it('[R10.4] a refusal with unreadable data is reported and treated as transient', () => {
    const h = connectionHarness();
    h.start();
    h.socket().refuse('nope', { code: 'teapot' });
    expect(h.protocolErrors).toHaveLength(1);
    expect(h.protocolErrors[0]).toMatchObject({ event: 'connect_error', reply: false });
    expect(expectItem(h.protocolErrors, 0).rule).toContain('code: expected one of unauthorized');
    expect(h.state()).toMatchObject({ status: 'reconnecting', error: { kind: 'unreachable', message: 'nope' } });
  });

  it('[R10.4] a broken preferences ack is reported and the change counts as not saved', async () => {
    const h = connectionHarness();
    h.start();
    h.socket().accept();
    const saved = h.connection.updatePreferences({ askUserQuestionAutoResolutionEnabled: true });
    const updates = h.socket().pending('preferences:update');
    expect(updates).toHaveLength(1);
    expect(expectItem(updates, 0).payload).toEqual({ askUserQuestionAutoResolutionEnabled: true });
    expectItem(updates, 0).reply({ ok: true });
    await expect(saved).resolves.toBe(false);
    expect(h.protocolErrors).toEqual([
      { event: 'preferences:update', reply: true, rule: expect.stringContaining('preferences') },
    ]);
  });

  it('[R10.4] a broken liveness answer is reported', () => {
    const h = connectionHarness();
    h.start();
    h.socket().accept();
    h.connection.wake();
    const probes = h.socket().pending('snapshot:get');
    expect(probes).toHaveLength(1);
    expectItem(probes, 0).reply('pong');
    expect(h.protocolErrors).toEqual([{ event: 'snapshot:get', reply: true, rule: '(root): expected object' }]);
  });

  it('[R10.4] without an onProtocolError hook the report still reaches the log', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const h = connectionHarness({ onProtocolError: undefined, log: undefined });
      h.start();
      h.socket().accept();
      h.socket().send('events', 'garbage');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toBe(
        "askaway: the host sent a malformed 'events' message: (root): expected object",
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('[R16.5] a revoked device stops for good: state and cache cleared, no retry, the app told', async () => {
    let revoked = 0;
    let cleared = 0;
    const h = connectionHarness({
      onRevoked: () => (revoked += 1),
      hostCache: { load: () => Promise.resolve(null), save: () => undefined, clear: () => Promise.resolve(cleared++) },
    });
    h.start();
    h.socket().accept();
    h.socket().send('snapshot', snapshotOf([questionView('q1')], 3));
    h.socket().drop();
    h.socket().refuse('device-revoked', {
      code: 'device-revoked',
      message: 'This device was removed from workstation.',
    });
    expect(h.state()).toMatchObject({ status: 'refused', error: { kind: 'device-revoked' } });
    expect(h.state().host.interactions.size).toBe(0);
    expect(revoked).toBe(1);
    expect(cleared).toBe(1);
    expect(h.socket().connected).toBe(false);
    h.connection.wake();
    expect(h.socket().connectCalls).toBe(0);
  });

  it("[R16.5] hearing its own revocation in the event stream is enough; another device's only updates the list", () => {
    let revoked = 0;
    const h = connectionHarness({ onRevoked: () => (revoked += 1) });
    h.start();
    h.socket().accept();
    const device = (id: string) => ({ id, name: id, platform: '', pairedAt: at(1) });
    h.socket().send('snapshot', { ...snapshotOf([], 3), devices: [device('phone'), device('laptop')] });
    h.socket().send('events', {
      events: [{ seq: 4, at: at(32), type: 'device.revoked', deviceId: 'laptop', byDeviceId: 'phone' }],
      serverTime: at(32),
    });
    expect(h.state().host.devices.get('laptop')?.revokedAt).toBe(at(32));
    expect(h.state().status).toBe('connected');
    h.socket().send('events', {
      events: [{ seq: 5, at: at(33), type: 'device.revoked', deviceId: 'phone' }],
      serverTime: at(33),
    });
    expect(h.state()).toMatchObject({ status: 'refused', error: { kind: 'device-revoked' } });
    expect(revoked).toBe(1);
  });

  it('[R16.9] paired again: its revocation for the device paired in the same commit stops the connection without removing anything', () => {
    const replaced: [string, string][] = [];
    let revoked = 0;
    let cleared = 0;
    const h = connectionHarness({
      onRevoked: () => (revoked += 1),
      onReplaced: (deviceId, byDeviceId) => replaced.push([deviceId, byDeviceId]),
      hostCache: { load: () => Promise.resolve(null), save: () => undefined, clear: () => Promise.resolve(cleared++) },
    });
    h.start();
    h.socket().accept();
    h.socket().send('snapshot', snapshotOf([questionView('q1')], 3));
    h.socket().send('events', {
      events: [
        { seq: 4, at: at(32), type: 'device.paired', device: { id: 'phone-2', name: 'phone', platform: '' } },
        { seq: 5, at: at(32), type: 'device.revoked', deviceId: 'phone', byDeviceId: 'phone-2' },
      ],
      serverTime: at(32),
    });
    expect(replaced).toEqual([['phone', 'phone-2']]);
    expect(revoked).toBe(0);
    expect(cleared).toBe(0);
    expect(h.state().status).toBe('connecting');
    expect(h.state().error).toBeNull();
    expect(h.state().host.interactions.has('q1')).toBe(true);
    expect(h.socket().connected).toBe(false);
  });

  it('[R16.5] after the host closes the connection it asks again, so the handshake can say why', () => {
    const h = connectionHarness();
    h.start();
    h.socket().accept();
    h.socket().kick();
    expect(h.state().status).toBe('reconnecting');
    expect(h.socket().connectCalls).toBe(1);
    h.socket().drop();
    expect(h.socket().connectCalls).toBe(1);
  });
});
