import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FatalInteractionError,
  INTERACTION_REQUEST_REANNOUNCE_INTERVAL_MS,
  withInteractionRequestRecovery,
} from './request-recovery';
import { expectItem } from '../core/test-support/expect-item';

interface Call {
  id: string;
  signal: AbortSignal;
  resolve: (value: string) => void;
  reject: (error: unknown) => void;
}

function controllableSend() {
  const calls: Call[] = [];
  const send = vi.fn(
    (id: string, signal: AbortSignal) =>
      new Promise<string>((resolve, reject) => {
        calls.push({ id, signal, resolve, reject });
      }),
  );
  return { calls, send };
}

const ids = () => {
  let n = 0;
  return () => `p${++n}`;
};

describe('withInteractionRequestRecovery', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('[R8.1] announces at once and re-announces every second with a fresh protocol id', async () => {
    expect(INTERACTION_REQUEST_REANNOUNCE_INTERVAL_MS).toBe(1000);
    const { calls, send } = controllableSend();
    const pending = withInteractionRequestRecovery(send, { newProtocolRequestId: ids() });
    expect(calls.map((c) => c.id)).toEqual(['p1']);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls.map((c) => c.id)).toEqual(['p1', 'p2', 'p3', 'p4']);
    expectItem(calls, 0).resolve('done');
    await expect(pending).resolves.toBe('done');
  });

  it('[R8.1] a rejecting send (transient disconnect) does not end the loop', async () => {
    const { calls, send } = controllableSend();
    const pending = withInteractionRequestRecovery(send, { newProtocolRequestId: ids(), intervalMs: 500 });
    expectItem(calls, 0).reject(new Error('disconnected'));
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toHaveLength(2);
    expectItem(calls, 1).resolve('answered via p2');
    await expect(pending).resolves.toBe('answered via p2');
  });

  it('[R8.1] a send that throws synchronously is retried as well', async () => {
    let attempts = 0;
    const pending = withInteractionRequestRecovery(
      (id) => {
        attempts += 1;
        if (attempts === 1) throw new Error('not connected');
        return Promise.resolve(id);
      },
      { newProtocolRequestId: ids() },
    );
    await vi.advanceTimersByTimeAsync(1000);
    await expect(pending).resolves.toBe('p2');
  });

  it('[R8.3] the first resolution wins, aborts outstanding sends and stops re-announcing', async () => {
    const { calls, send } = controllableSend();
    const pending = withInteractionRequestRecovery(send, { newProtocolRequestId: ids() });
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(3);
    expectItem(calls, 1).resolve('second');
    await expect(pending).resolves.toBe('second');
    // The caller has the value before the sends are stopped, a turn later (an abort is an event dispatch).
    expect(calls.map((c) => c.signal.aborted)).toEqual([true, false, false]);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => c.signal.aborted)).toEqual([true, true, true]);
    expectItem(calls, 2).resolve('late');
    await vi.advanceTimersByTimeAsync(5000);
    expect(send).toHaveBeenCalledTimes(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('[R8.1] keeps only the newest two sends open during a long wait', async () => {
    const { calls, send } = controllableSend();
    const pending = withInteractionRequestRecovery(send, { newProtocolRequestId: ids() });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls.length).toBeGreaterThan(500);
    expect(calls.filter((c) => !c.signal.aborted).map((c) => c.id)).toEqual([
      `p${calls.length - 1}`,
      `p${calls.length}`,
    ]);
    expectItem(calls, calls.length - 1).resolve('answered');
    await expect(pending).resolves.toBe('answered');
  });

  it('[R8.3] an external abort rejects with AbortError and stops everything', async () => {
    const { calls, send } = controllableSend();
    const controller = new AbortController();
    const pending = withInteractionRequestRecovery(send, { signal: controller.signal });
    const outcome = expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(1000);
    controller.abort();
    await outcome;
    expect(calls.every((c) => c.signal.aborted)).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(send).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('[R8.3] an already-aborted signal never sends', async () => {
    const { send } = controllableSend();
    await expect(withInteractionRequestRecovery(send, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(send).not.toHaveBeenCalled();
  });

  it('[R8.3] a fatal rejection ends the loop with that error', async () => {
    const { calls, send } = controllableSend();
    const pending = withInteractionRequestRecovery(send);
    const outcome = expect(pending).rejects.toBeInstanceOf(FatalInteractionError);
    expectItem(calls, 0).reject(new FatalInteractionError('invalid request'));
    await outcome;
    await vi.advanceTimersByTimeAsync(3000);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('[R8.1] falls back to the default interval for a nonsensical one', async () => {
    const { calls, send } = controllableSend();
    const pending = withInteractionRequestRecovery(send, { intervalMs: -5 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(2);
    expectItem(calls, 0).resolve('ok');
    await expect(pending).resolves.toBe('ok');
  });
});
