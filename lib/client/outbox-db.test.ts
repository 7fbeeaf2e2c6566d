import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadOutboxEntries, putOutboxEntry, type OutboxEntry } from './outbox-db';

const entry = (clientResponseId: string): OutboxEntry => ({
  requestId: `req-${clientResponseId}`,
  clientResponseId,
  response: { action: 'decline' },
  createdAt: '2026-12-02T10:00:00.000Z',
  state: 'queued',
});

/** What `transaction()` throws on a connection the browser closed (WebKit: "Connection … lost"). */
const closed = () => new DOMException('The database connection is closing.', 'InvalidStateError');

afterEach(() => vi.restoreAllMocks());

describe('outbox-db', () => {
  it('[R9.8] a connection the browser closed is replaced: the write lands on a new one', async () => {
    await putOutboxEntry(entry('before'));
    const opens = vi.spyOn(indexedDB, 'open');
    vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementationOnce(() => {
      throw closed();
    });
    await putOutboxEntry(entry('after-close'));
    expect(opens).toHaveBeenCalledTimes(1);
    expect((await loadOutboxEntries()).map((e) => e.clientResponseId).sort()).toEqual(['after-close', 'before']);
  });

  it('[R9.8] any other failure is the caller’s, not retried', async () => {
    const opens = vi.spyOn(indexedDB, 'open');
    vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementationOnce(() => {
      throw new DOMException('No such store', 'NotFoundError');
    });
    await expect(putOutboxEntry(entry('not-found'))).rejects.toMatchObject({ name: 'NotFoundError' });
    expect(opens).not.toHaveBeenCalled();
  });
});
