import { describe, expect, it } from 'vitest';
import { approxBytes, BoundedQueue } from './bounded-queue';

describe('[R12.19] what the Copilot bridge keeps about prompts, bounded in count and bytes', () => {
  it('[R12.19] past the bytes allowed the oldest go, the first drop of a run told as first', () => {
    const dropped: [string, boolean][] = [];
    const queue = new BoundedQueue<string>({ count: 100, bytes: 1_000 }, (key, first) => dropped.push([key, first]));
    for (const key of ['a', 'b', 'c', 'd']) queue.set(key, key, 400);
    expect(queue.values()).toEqual(['c', 'd']);
    expect(queue.bytes).toBe(800);
    expect(dropped).toEqual([
      ['a', true],
      ['b', false],
    ]);
    // Room again (half the limits): the next drop is a new run's first.
    queue.delete('c');
    queue.delete('d');
    for (const key of ['e', 'f', 'g']) queue.set(key, key, 400);
    expect(dropped.at(-1)).toEqual(['e', true]);
  });

  it('[R12.19] a value is weighed by its strings and values, without recursion', () => {
    expect(approxBytes('x'.repeat(1_000))).toBeGreaterThanOrEqual(2_000);
    let deep: unknown = 'leaf';
    for (let depth = 0; depth < 100_000; depth += 1) deep = [deep];
    expect(approxBytes(deep)).toBeGreaterThan(100_000 * 32);
  });
});
