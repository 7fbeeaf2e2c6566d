import { describe, expect, it, vi } from 'vitest';
import { followLog } from './follow-log';

/** A log whose hints the test gives, and a registry whose catch-ups finish when the test says. */
function fixture() {
  let hint: (lastSeq: number) => void = () => undefined;
  const store = {
    watch: (listener: (lastSeq: number) => void) => {
      hint = listener;
      return () => {
        hint = () => undefined;
      };
    },
  };
  const finishers: (() => void)[] = [];
  const registry = {
    projection: { seq: 0 },
    catchUp: vi.fn(
      () =>
        new Promise<number>((resolve) => {
          finishers.push(() => resolve(0));
        }),
    ),
  };
  const finishOne = async () => {
    finishers.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  const hints = async (...seqs: number[]) => {
    for (const seq of seqs) hint(seq);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { store, registry, finishOne, hints };
}

describe('[R20.40] following the log', () => {
  it('[R20.40] catches up once at the start, then once per burst of hints: one running and one waiting at most', async () => {
    const f = fixture();
    const stop = followLog(f.store, f.registry, () => undefined);
    expect(f.registry.catchUp).toHaveBeenCalledTimes(1);
    await f.hints(1, 2, 3, 4, 5);
    expect(f.registry.catchUp).toHaveBeenCalledTimes(1);
    await f.finishOne();
    // The five hints while one ran: a single catch-up after it reads up to the head.
    expect(f.registry.catchUp).toHaveBeenCalledTimes(2);
    await f.finishOne();
    expect(f.registry.catchUp).toHaveBeenCalledTimes(2);
    stop();
  });

  it('[R20.40] a hint of a seq already folded (this process’s own commit) asks for nothing, nor any after stopping', async () => {
    const f = fixture();
    const stop = followLog(f.store, f.registry, () => undefined);
    await f.finishOne();
    f.registry.projection.seq = 7;
    await f.hints(6, 7);
    expect(f.registry.catchUp).toHaveBeenCalledTimes(1);
    await f.hints(8);
    expect(f.registry.catchUp).toHaveBeenCalledTimes(2);
    await f.finishOne();
    stop();
    await f.hints(9);
    expect(f.registry.catchUp).toHaveBeenCalledTimes(2);
  });

  it('[R20.40] a catch-up that fails (the database away) is reported and the next hint tries again', async () => {
    const f = fixture();
    const errors: unknown[] = [];
    f.registry.catchUp.mockImplementationOnce(() => Promise.reject(new Error('unreachable')));
    const stop = followLog(f.store, f.registry, (error) => errors.push(error));
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([new Error('unreachable')]);
    await f.hints(3);
    expect(f.registry.catchUp).toHaveBeenCalledTimes(2);
    await f.finishOne();
    stop();
  });
});
