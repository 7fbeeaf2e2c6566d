import { describe, expect, it } from 'vitest';
import { AuditIndex } from './audit-index';

describe('[R21.69] where the audit entries are', () => {
  const index = new AuditIndex();
  index.add(3, '2026-12-07T10:00:00.000Z');
  index.add(8, '2026-12-07T10:05:00.000Z');
  // A replica whose clock is a second behind: still found by a `since` before the entry after it.
  index.add(9, '2026-12-07T10:04:59.000Z');
  index.add(15, '2026-12-07T11:00:00.000Z');

  it('[R21.69] pages newest first below a seq', () => {
    expect(index.newestBefore(Number.MAX_SAFE_INTEGER, 2)).toEqual([15, 9]);
    expect(index.newestBefore(9, 5)).toEqual([8, 3]);
    expect(index.newestBefore(3, 5)).toEqual([]);
  });

  it('[R21.69] reads oldest first from a time, after a seq, never leaving out an entry recorded after that time', () => {
    expect(index.oldestSince(Date.parse('2026-12-07T10:01:00Z'), 0, 10)).toEqual([8, 9, 15]);
    expect(index.oldestSince(Date.parse('2026-12-07T10:05:00Z'), 0, 10)).toEqual([8, 9, 15]);
    expect(index.oldestSince(0, 8, 2)).toEqual([9, 15]);
    expect(index.oldestSince(Date.parse('2026-12-07T12:00:00Z'), 0, 10)).toEqual([]);
  });
});
