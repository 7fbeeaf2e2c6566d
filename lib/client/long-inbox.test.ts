import { describe, expect, it } from 'vitest';
import { type InboxGroup } from './selectors';
import { LONG_INBOX_ROWS, longInbox } from './long-inbox';

function groups(rowsPerGroup: number[]): InboxGroup[] {
  return rowsPerGroup.map((rows, index) => ({
    key: `m:${index}`,
    sessionId: `session-${index}`,
    machine: { id: 'local', name: 'hub' },
    project: 'service',
    items: Array.from({ length: rows }, () => ({}) as InboxGroup['items'][number]),
  }));
}

describe('longInbox (R13.8)', () => {
  it('[R13.8] a reload’s 20 rows are laid out whole: no group is left for a read to lay out on its own', () => {
    expect(longInbox(groups([5, 5, 5, 5]))).toBeUndefined();
    expect(longInbox(groups([LONG_INBOX_ROWS - 1]))).toBeUndefined();
  });

  it('[R13.8] from LONG_INBOX_ROWS rows, across groups, the browser may skip groups off screen', () => {
    expect(longInbox(groups([LONG_INBOX_ROWS]))).toBe('true');
    expect(longInbox(groups([LONG_INBOX_ROWS - 10, 10]))).toBe('true');
    expect(longInbox(groups(Array.from({ length: 100 }, () => 10)))).toBe('true');
  });
});
