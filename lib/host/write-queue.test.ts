import { describe, expect, it } from 'vitest';
import { WriteQueue } from './write-queue';

describe('[R20.1] WriteQueue', () => {
  it('[R20.1] runs tasks one at a time in the order they were queued', async () => {
    const queue = new WriteQueue();
    const seen: string[] = [];
    let finishWrite = () => undefined as void;
    const written = new Promise<void>((resolve) => (finishWrite = resolve));
    const slow = queue.run(async () => {
      seen.push('slow started');
      await written;
      seen.push('slow ended');
      return 1;
    });
    const fast = queue.run(() => {
      seen.push('fast');
      return 2;
    });
    // However long the first task's write takes, the second waits for it.
    await Promise.resolve();
    await Promise.resolve();
    expect(seen).toEqual(['slow started']);
    finishWrite();
    expect(await Promise.all([slow, fast])).toEqual([1, 2]);
    expect(seen).toEqual(['slow started', 'slow ended', 'fast']);
  });

  it('[R20.1] an idle queue starts a task at once, and queues one that arrives while it runs', async () => {
    const queue = new WriteQueue();
    const seen: string[] = [];
    const first = queue.run(async () => {
      seen.push('first');
      await Promise.resolve();
    });
    const second = queue.run(() => seen.push('second'));
    expect(seen).toEqual(['first']);
    await Promise.all([first, second]);
    expect(seen).toEqual(['first', 'second']);
    // Idle again once both settled.
    void queue.run(() => seen.push('third'));
    expect(seen).toEqual(['first', 'second', 'third']);
  });

  it('[R20.1] a failed task fails its caller only; the next one runs', async () => {
    const queue = new WriteQueue();
    const failed = queue.run(() => Promise.reject(new Error('disk full')));
    const next = queue.run(() => 'ran');
    await expect(failed).rejects.toThrow('disk full');
    await expect(next).resolves.toBe('ran');
  });
});
