import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type InteractionView } from '../contracts';
import { showCachedStart } from './cache-first';
import { type HostView } from './host-view';
import { selectPendingCount } from './pending-count';
import { selectInbox } from './selectors';
import { isLive } from './store';
import { ANSWER, connectionHarness } from './test-support/connection-harness';
import { at, MemoryOutbox, PAIRING, questionView, resolution, snapshotOf } from './test-support/fixtures';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse(at(28)) });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets promise callbacks (outbox, cache) run; no timer moves. */
const settle = () => vi.advanceTimersByTimeAsync(0);

function cachedHost(views: InteractionView[], seenAt: string | null = at(20)): HostView {
  return {
    hasSnapshot: false,
    cached: true,
    seenAt,
    lastSeq: 0,
    logId: null,
    interactions: new Map(views.map((view) => [view.requestId, view])),
    preferences: null,
    hostVersion: 'test',
    hostName: null,
    devices: new Map(),
    machines: [],
    pendingTotal: 0,
    pendingCursor: null,
    clockOffsetMs: 0,
  };
}

const pendingIds = (host: HostView) => selectInbox(host).flatMap((group) => group.items.map((view) => view.requestId));

describe('cache-first start: the last known inbox before the connection', () => {
  it('[R9.13] shows the cached inbox as not live, with when it was last seen, and the queued answers', () => {
    const h = connectionHarness();
    const queued = { requestId: 'q2', clientResponseId: 'old-1', response: ANSWER, createdAt: at(19) };
    const shown = showCachedStart(h.store, PAIRING, {
      host: cachedHost([questionView('q1'), questionView('q2')]),
      answers: [{ ...queued, state: 'queued' }],
    });
    expect(shown).toBe(true);
    expect(h.state()).toMatchObject({ status: 'connecting', hostUrl: PAIRING.hostUrl });
    expect(h.state().host).toMatchObject({ cached: true, hasSnapshot: false, seenAt: at(20) });
    expect(selectPendingCount(h.state().host)).toBe(2);
    expect(isLive(h.state())).toBe(false);
    // A queued answer on a cached card shows as queued, not as an empty form.
    expect(h.answer('q2')).toMatchObject({ clientResponseId: 'old-1', phase: 'queued' });
  });

  it('[R9.13] nothing cached: nothing shown, and the skeleton stays until the host answers', () => {
    const h = connectionHarness();
    expect(showCachedStart(h.store, PAIRING, { host: null, answers: [] })).toBe(false);
    expect(h.state().host).toMatchObject({ cached: false, hasSnapshot: false });
  });

  it('[R9.13] never replaces live state, nor shows a cache over another host', () => {
    const live = connectionHarness();
    live.start();
    live.socket().accept();
    live.socket().send('snapshot', snapshotOf([questionView('live')], 3));
    expect(showCachedStart(live.store, PAIRING, { host: cachedHost([questionView('old')]), answers: [] })).toBe(false);
    expect(pendingIds(live.state().host)).toEqual(['live']);

    const other = connectionHarness();
    other.connection.start({ ...PAIRING, hostUrl: 'http://other.test' });
    const shown = showCachedStart(other.store, PAIRING, { host: cachedHost([questionView('old')]), answers: [] });
    expect(shown).toBe(false);
    expect(other.state().host.interactions.size).toBe(0);
  });

  it('[R9.13] the live snapshot replaces it in place: a question resolved meanwhile leaves the inbox', async () => {
    const h = connectionHarness();
    showCachedStart(h.store, PAIRING, {
      host: cachedHost([questionView('q1'), questionView('q2')]),
      answers: [],
    });
    h.start();
    await settle();
    // The cached view survives the start (same host) and is still not live once the socket is up.
    expect(pendingIds(h.state().host).sort()).toEqual(['q1', 'q2']);
    expect(h.socket().accept().resume).toBeUndefined();
    expect(isLive(h.state())).toBe(false);

    const answered = { ...questionView('q1'), status: 'resolved' as const, resolution: resolution('q1') };
    h.socket().send('snapshot', { ...snapshotOf([questionView('q2')], 5), history: [answered] });
    expect(h.state().host).toMatchObject({ cached: false, hasSnapshot: true, seenAt: null, lastSeq: 5 });
    expect(isLive(h.state())).toBe(true);
    expect(pendingIds(h.state().host)).toEqual(['q2']);
    expect(h.state().host.interactions.get('q1')?.status).toBe('resolved');

    h.socket().drop();
    expect(isLive(h.state())).toBe(false);
  });

  it('[R9.13] rows the snapshot did not change keep their identity, so they do not re-render', async () => {
    const h = connectionHarness();
    const unchanged = questionView('q1');
    const changed = questionView('q2');
    showCachedStart(h.store, PAIRING, { host: cachedHost([unchanged, changed]), answers: [] });
    h.start();
    await settle();
    h.socket().accept();
    const scheduled = {
      ...questionView('q2'),
      autoResolution: { status: 'scheduled' as const, timeoutMs: 60_000, scheduledAt: at(10), deadlineAt: at(50) },
    };
    h.socket().send('snapshot', snapshotOf([questionView('q1'), scheduled], 5));
    expect(h.state().host.interactions.get('q1')).toBe(unchanged);
    expect(h.state().host.interactions.get('q2')).not.toBe(changed);
    expect(h.state().host.interactions.get('q2')?.autoResolution.status).toBe('scheduled');
  });
});

describe('cache-first start: answering a cached card', () => {
  it('[R9.13][R9.8] the answer is queued durably, then delivered when the host is back', async () => {
    const outbox = new MemoryOutbox();
    const h = connectionHarness({ outbox });
    showCachedStart(h.store, PAIRING, { host: cachedHost([questionView('q1')]), answers: [] });
    await h.connection.submitResponse('q1', ANSWER);
    expect(h.answer('q1')?.phase).toBe('queued');
    expect([...outbox.entries.values()]).toEqual([expect.objectContaining({ requestId: 'q1', state: 'queued' })]);

    h.start();
    await settle();
    h.socket().accept();
    h.socket().send('snapshot', snapshotOf([questionView('q1')], 2));
    const sent = h.socket().pending('respond');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.payload).toEqual({ requestId: 'q1', clientResponseId: 'answer-1', response: ANSWER });
    sent[0]?.reply({ ok: true, status: 'accepted', resolution: resolution('q1', 'answer-1') });
    await settle();
    expect(h.answer('q1')?.phase).toBe('accepted');
    expect(outbox.entries.size).toBe(0);
  });

  it('[R9.13][R9.8][R10.3] answered on another device meanwhile: the receipt says so and the answer stays readable', async () => {
    const outbox = new MemoryOutbox();
    const h = connectionHarness({ outbox });
    showCachedStart(h.store, PAIRING, { host: cachedHost([questionView('q1')]), answers: [] });
    await h.connection.submitResponse('q1', ANSWER);

    h.start();
    await settle();
    h.socket().accept();
    const elsewhere = {
      ...resolution('q1', 'laptop-answer'),
      device: { id: 'laptop', label: 'Laptop' },
      response: { action: 'accept' as const, content: { answers: { 'Which database?': 'Postgres' } } },
    };
    const sent = h.socket().pending('respond');
    expect(sent).toHaveLength(1);
    sent[0]?.reply({ ok: true, status: 'already-resolved', resolution: elsewhere });
    await settle();
    // The ack may come before the snapshot: the answer knows who won even while the view is cached.
    expect(h.answer('q1')).toMatchObject({ phase: 'lost', resolution: { device: { label: 'Laptop' } } });
    expect(h.state().host.interactions.get('q1')?.status).toBe('pending');
    expect([...outbox.entries.values()]).toEqual([
      expect.objectContaining({ requestId: 'q1', state: 'lost', response: ANSWER }),
    ]);
  });

  it('[R9.13][R9.8] withdrawn meanwhile: the host refuses it and what was written is kept', async () => {
    const outbox = new MemoryOutbox();
    const h = connectionHarness({ outbox });
    showCachedStart(h.store, PAIRING, { host: cachedHost([questionView('q1')]), answers: [] });
    await h.connection.submitResponse('q1', ANSWER);
    h.start();
    await settle();
    h.socket().accept();
    const withdrawn = { ...questionView('q1'), status: 'withdrawn' as const, withdrawnAt: at(25) };
    h.socket().send('snapshot', { ...snapshotOf([], 4), history: [withdrawn] });
    const sent = h.socket().pending('respond');
    expect(sent).toHaveLength(1);
    sent[0]?.reply({ ok: false, error: { code: 'withdrawn', message: 'The agent withdrew this question' } });
    await settle();
    expect(h.state().host.interactions.get('q1')?.status).toBe('withdrawn');
    expect(h.answer('q1')).toMatchObject({ phase: 'failed', response: ANSWER });
    expect([...outbox.entries.values()]).toEqual([expect.objectContaining({ state: 'failed', response: ANSWER })]);
  });
});
