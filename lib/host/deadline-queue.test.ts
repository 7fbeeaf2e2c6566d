import { describe, expect, it } from 'vitest';
import { DeadlineQueue } from './deadline-queue';

describe('deadline queue', () => {
  it('[R6.4] keeps the earliest deadline through sets, moves and deletes', () => {
    const queue = new DeadlineQueue();
    expect(queue.earliest()).toBeNull();
    queue.set('a', 300);
    queue.set('b', 100);
    queue.set('c', 200);
    expect(queue.earliest()).toBe(100);
    queue.set('b', 400);
    expect(queue.earliest()).toBe(200);
    queue.delete('c');
    expect(queue.earliest()).toBe(300);
    expect(queue.due(350)).toEqual(['a']);
    queue.delete('a');
    queue.delete('b');
    expect(queue.earliest()).toBeNull();
    expect(queue.size).toBe(0);
  });

  it('[R6.4] lists due ids earliest first and agrees with a full scan after many random changes', () => {
    const queue = new DeadlineQueue();
    const reference = new Map<string, number>();
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let step = 0; step < 5_000; step += 1) {
      const requestId = `r${Math.floor(random() * 300)}`;
      if (random() < 0.35) {
        queue.delete(requestId);
        reference.delete(requestId);
      } else {
        const at = Math.floor(random() * 10_000);
        queue.set(requestId, at);
        reference.set(requestId, at);
      }
      const values = [...reference.values()];
      expect(queue.earliest()).toBe(values.length === 0 ? null : Math.min(...values));
    }
    const now = 2_500;
    const expected = [...reference]
      .filter(([, at]) => at <= now)
      .sort((a, b) => a[1] - b[1])
      .map(([id]) => id);
    expect(queue.due(now).map((id) => reference.get(id))).toEqual(expected.map((id) => reference.get(id)));
    expect(new Set(queue.due(now))).toEqual(new Set(expected));
  });
});
