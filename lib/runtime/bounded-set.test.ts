import { describe, expect, it } from 'vitest';
import { BoundedSet } from './bounded-set';

describe('[R12.17] a bounded memory of ids', () => {
  it('[R12.17] holds at most its bound, forgetting the oldest; adding an id again makes it the newest', () => {
    const ids = new BoundedSet(3);
    for (const id of ['a', 'b', 'c']) ids.add(id);
    ids.add('a');
    ids.add('d');
    expect([ids.has('a'), ids.has('b'), ids.has('c'), ids.has('d')]).toEqual([true, false, true, true]);
    for (let index = 0; index < 10_000; index += 1) ids.add(`flood-${index}`);
    expect(ids.size).toBe(3);
    ids.delete('flood-9999');
    expect(ids.size).toBe(2);
  });
});
