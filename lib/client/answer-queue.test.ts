import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type RespondCommand } from '../contracts';
import { ANSWER_ACK_TIMEOUT_MS, ANSWER_RETRY_MAX_MS, ANSWER_RETRY_MIN_MS } from './answer-queue';
import { type AnswerPhase } from './store';
import { ANSWER, connectionHarness } from './test-support/connection-harness';
import { type FakeHostSocket, type PendingEmit } from './test-support/fake-host-socket';
import {
  acceptedAck,
  at,
  deliveredEvent,
  MemoryOutbox,
  questionView,
  refusedAck,
  resolution,
  resolvedEvent,
  snapshotOf,
} from './test-support/fixtures';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse(at(30)) });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets promise callbacks (outbox writes) run; no timer moves. */
const settle = () => vi.advanceTimersByTimeAsync(0);

/** The one unanswered `respond` on this socket, and its command. */
function onlyRespond(socket: FakeHostSocket): { emit: PendingEmit; command: RespondCommand } {
  const pending = socket.pending('respond');
  expect(pending).toHaveLength(1);
  const emit = pending[0];
  if (!emit) throw new Error('no respond emit');
  return { emit, command: emit.payload as RespondCommand };
}

function connected(options: Parameters<typeof connectionHarness>[0] = {}) {
  const h = connectionHarness(options);
  h.start();
  h.socket().accept();
  h.socket().send('snapshot', snapshotOf([questionView('q1')], 5));
  return h;
}

function recordPhases(h: ReturnType<typeof connectionHarness>, requestId: string): AnswerPhase[] {
  const phases: AnswerPhase[] = [];
  h.store.subscribe(() => {
    const phase = h.answer(requestId)?.phase;
    if (phase && phases.at(-1) !== phase) phases.push(phase);
  });
  return phases;
}

describe('answers: outbox and delivery (R9.8)', () => {
  it('[R9.8] an answer given offline waits in the outbox and is sent once on connect, with its idempotency key', async () => {
    const h = connectionHarness();
    h.start();
    await h.connection.submitResponse('q1', ANSWER);
    expect(h.answer('q1')?.phase).toBe('queued');
    expect([...h.outbox.entries.values()]).toEqual([
      expect.objectContaining({ requestId: 'q1', clientResponseId: 'answer-1', state: 'queued', response: ANSWER }),
    ]);

    h.socket().accept();
    // Both the connect and the snapshot flush the queue; the answer still goes out once.
    h.socket().send('snapshot', snapshotOf([questionView('q1')], 5));
    const { emit, command } = onlyRespond(h.socket());
    expect(command).toEqual({ requestId: 'q1', clientResponseId: 'answer-1', response: ANSWER });
    expect(h.answer('q1')?.phase).toBe('sending');

    emit.reply(acceptedAck(command));
    await settle();
    expect(h.answer('q1')?.phase).toBe('accepted');
    expect(h.outbox.entries.size).toBe(0);
    expect(h.socket().emitted.filter((e) => e.event === 'respond')).toHaveLength(1);
  });

  it('[R9.8] an answer submitted while the socket connects still goes out once', async () => {
    const h = connectionHarness();
    h.start();
    // The connect flushes the queue while the answer is still being written to the outbox.
    const submitted = h.connection.submitResponse('q1', ANSWER);
    h.socket().accept();
    await submitted;
    expect(onlyRespond(h.socket()).command.clientResponseId).toBe('answer-1');
  });

  it('[R9.8] answers left in the outbox by an earlier page are sent with their stored key', async () => {
    const outbox = new MemoryOutbox([
      { requestId: 'q1', clientResponseId: 'from-last-page', response: ANSWER, createdAt: at(2), state: 'queued' },
      { requestId: 'q2', clientResponseId: 'lost-before', response: ANSWER, createdAt: at(3), state: 'lost' },
    ]);
    const h = connectionHarness({ outbox });
    h.start();
    await settle();
    expect(h.state().outboxLoaded).toBe(true);
    expect(h.answer('q2')?.phase).toBe('lost');
    h.socket().accept();
    expect(onlyRespond(h.socket()).command.clientResponseId).toBe('from-last-page');
  });

  it('[R9.8][R10.5] settles sending → accepted (delivered) → received by the agent', async () => {
    const h = connected();
    const phases = recordPhases(h, 'q1');
    await h.connection.submitResponse('q1', ANSWER);
    const { emit, command } = onlyRespond(h.socket());
    emit.reply(acceptedAck(command));
    await settle();
    expect(phases).toEqual(['queued', 'sending', 'accepted']);
    expect(h.answer('q1')?.resolution?.clientResponseId).toBe('answer-1');

    h.socket().send('events', {
      events: [resolvedEvent(6, resolution('q1', 'answer-1')), deliveredEvent(7, 'q1')],
      serverTime: at(41),
    });
    expect(h.state().host.interactions.get('q1')).toMatchObject({ status: 'resolved', deliveredAt: at(7) });
  });

  it('[R10.3] an answer that lost the race is kept, readable, beside the winner', async () => {
    const h = connected();
    await h.connection.submitResponse('q1', ANSWER);
    const { emit } = onlyRespond(h.socket());
    const winner = resolution('q1', 'other-device');
    emit.reply({ ok: true, status: 'already-resolved', resolution: winner });
    await settle();
    expect(h.answer('q1')).toMatchObject({ phase: 'lost', resolution: winner });
    expect(h.outbox.entries.get('answer-1')).toMatchObject({ state: 'lost', resolution: winner });
  });

  it('[R10.3] a retry whose first try had won (ack lost) counts as accepted', async () => {
    const h = connected();
    await h.connection.submitResponse('q1', ANSWER);
    const { emit } = onlyRespond(h.socket());
    emit.reply({ ok: true, status: 'already-resolved', resolution: resolution('q1', 'answer-1') });
    await settle();
    expect(h.answer('q1')?.phase).toBe('accepted');
    expect(h.outbox.entries.size).toBe(0);
  });

  it('[R9.8] an answer in flight when the socket drops is queued and sent again on reconnect, same key', async () => {
    const h = connected();
    await h.connection.submitResponse('q1', ANSWER);
    onlyRespond(h.socket());
    h.socket().drop();
    expect(h.answer('q1')?.phase).toBe('queued');
    // No retry timer while disconnected: the reconnect is what sends it.
    await vi.advanceTimersByTimeAsync(ANSWER_RETRY_MAX_MS);
    expect(h.socket().emitted.filter((e) => e.event === 'respond')).toHaveLength(1);
    h.socket().accept();
    expect(onlyRespond(h.socket()).command.clientResponseId).toBe('answer-1');
  });
});

describe('answers the host refuses', () => {
  it.each(['rate-limited', 'internal', 'unknown-interaction'] as const)(
    '[R9.8][R12.3] %s: queued again and retried on the live socket with the same key',
    async (code) => {
      const h = connected();
      await h.connection.submitResponse('q1', ANSWER);
      onlyRespond(h.socket()).emit.reply(refusedAck(code));
      expect(h.answer('q1')?.phase).toBe('queued');
      expect(h.socket().pending('respond')).toHaveLength(0);

      await vi.advanceTimersByTimeAsync(ANSWER_RETRY_MIN_MS);
      const retry = onlyRespond(h.socket());
      expect(retry.command.clientResponseId).toBe('answer-1');
      retry.emit.reply(acceptedAck(retry.command));
      await settle();
      expect(h.answer('q1')?.phase).toBe('accepted');
      expect(h.state().status).toBe('connected');
    },
  );

  it('[R9.8][R12.6] the host cannot save it (full disk): kept here with the reason, sent again, the reason gone once accepted', async () => {
    const h = connected();
    await h.connection.submitResponse('q1', ANSWER);
    onlyRespond(h.socket()).emit.reply(refusedAck('storage-unavailable'));
    await settle();
    expect(h.answer('q1')).toMatchObject({ phase: 'queued', retryReason: 'refused: storage-unavailable' });
    expect(h.outbox.entries.get('answer-1')?.state).toBe('queued');

    await vi.advanceTimersByTimeAsync(ANSWER_RETRY_MIN_MS);
    const retry = onlyRespond(h.socket());
    retry.emit.reply(acceptedAck(retry.command));
    await settle();
    expect(h.answer('q1')?.phase).toBe('accepted');
    expect(h.answer('q1')?.retryReason).toBeUndefined();
  });

  it('[R9.8] no ack in time: queued again and retried', async () => {
    const h = connected();
    await h.connection.submitResponse('q1', ANSWER);
    onlyRespond(h.socket());
    await vi.advanceTimersByTimeAsync(ANSWER_ACK_TIMEOUT_MS);
    expect(h.answer('q1')?.phase).toBe('queued');
    await vi.advanceTimersByTimeAsync(ANSWER_RETRY_MIN_MS);
    expect(onlyRespond(h.socket()).command.clientResponseId).toBe('answer-1');
  });

  it('[R10.4] invalid-response: the form comes back with the reason, the answer is not retried', async () => {
    const h = connected();
    await h.connection.submitResponse('q1', ANSWER);
    onlyRespond(h.socket()).emit.reply(refusedAck('invalid-response'));
    await settle();
    expect(h.answer('q1')).toMatchObject({ phase: 'failed', error: 'refused: invalid-response' });
    expect(h.outbox.entries.get('answer-1')?.state).toBe('failed');
    await vi.advanceTimersByTimeAsync(ANSWER_RETRY_MAX_MS);
    expect(h.socket().emitted.filter((e) => e.event === 'respond')).toHaveLength(1);

    // The corrected answer replaces the refused one, in memory and in the outbox.
    await h.connection.submitResponse('q1', { action: 'decline', message: 'not now' });
    expect([...h.outbox.entries.keys()]).toEqual(['answer-2']);
    expect(onlyRespond(h.socket()).command).toMatchObject({ clientResponseId: 'answer-2' });
  });

  it('[R10.4] a broken respond ack is reported and the answer retried', async () => {
    const h = connected();
    await h.connection.submitResponse('q1', ANSWER);
    onlyRespond(h.socket()).emit.reply({ ok: true, status: 'maybe' });
    expect(h.protocolErrors).toEqual([
      { event: 'respond', reply: true, rule: expect.stringContaining('status: expected') },
    ]);
    expect(h.answer('q1')?.phase).toBe('queued');
    await vi.advanceTimersByTimeAsync(ANSWER_RETRY_MIN_MS);
    expect(onlyRespond(h.socket()).command.clientResponseId).toBe('answer-1');
  });

  it('[R9.8] the retry delay doubles up to its cap and starts over after an accepted answer', async () => {
    const h = connected();
    await h.connection.submitResponse('q1', ANSWER);
    const delays: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      onlyRespond(h.socket()).emit.reply(refusedAck('rate-limited'));
      const refusedAt = Date.now();
      await vi.advanceTimersToNextTimerAsync();
      delays.push(Date.now() - refusedAt);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);

    const { emit, command } = onlyRespond(h.socket());
    emit.reply(acceptedAck(command));
    await settle();
    expect(h.answer('q1')?.phase).toBe('accepted');

    // The next refusal waits the shortest delay again.
    await h.connection.submitResponse('q2', ANSWER);
    onlyRespond(h.socket()).emit.reply(refusedAck('internal'));
    await vi.advanceTimersByTimeAsync(ANSWER_RETRY_MIN_MS - 1);
    expect(h.socket().pending('respond')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(onlyRespond(h.socket()).command.requestId).toBe('q2');
  });

  it('[R10.4][R12.3] an answer the host could never accept fails at once, even offline, and is never stored', async () => {
    const h = connectionHarness();
    h.start();
    await h.connection.submitResponse('q1', { action: 'accept', content: { answers: { Q: 'x'.repeat(2_500) } } });
    expect(h.answer('q1')).toMatchObject({ phase: 'failed', error: expect.stringMatching(/too big/i) });
    expect(h.outbox.entries.size).toBe(0);
  });
});
