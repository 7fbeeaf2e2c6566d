import { expect } from 'vitest';

/**
 * `list[index]` after asserting it is there. `calls[0]?.resolve(…)` on a call that never happened does
 * nothing, and the test then times out far from the cause; this fails at once and says which item is missing.
 */
export function expectItem<T>(list: readonly T[], index: number): T {
  expect(list.length, `expected an item at index ${index}`).toBeGreaterThan(index);
  const item = list[index];
  if (item === undefined) throw new Error(`the item at index ${index} is undefined`);
  return item;
}
