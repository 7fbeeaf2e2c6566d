import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  backFromBackForwardCache,
  leaveForBackForwardCache,
  loadOutboxEntries,
  putOutboxEntry,
  type OutboxEntry,
} from './outbox-db';

const entry = (clientResponseId: string): OutboxEntry => ({
  requestId: `req-${clientResponseId}`,
  clientResponseId,
  response: { action: 'decline' },
  createdAt: '2026-12-02T10:00:00.000Z',
  state: 'queued',
});

/** What `transaction()` throws on a connection the browser closed (WebKit: "Connection … lost"). */
const closed = () => new DOMException('The database connection is closing.', 'InvalidStateError');

afterEach(() => {
  backFromBackForwardCache();
  vi.restoreAllMocks();
});

/** The page leaves for the back/forward cache as soon as the next transaction has begun. */
function leaveAtNextTransaction(): void {
  const transaction = IDBDatabase.prototype.transaction;
  vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementationOnce(function (this: IDBDatabase, ...args) {
    // After the caller has set the transaction going, before its requests are answered: as a pagehide comes.
    queueMicrotask(leaveForBackForwardCache);
    return transaction.apply(this, args);
  });
}

const settled = (promise: Promise<unknown>) =>
  Promise.race([promise.then(() => 'settled'), new Promise((resolve) => setTimeout(resolve, 50, 'waiting'))]);

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

  it('[R9.8] a write open as the page leaves for the back/forward cache is ended, and made once the page is back', async () => {
    const opens = vi.spyOn(indexedDB, 'open');
    leaveAtNextTransaction();
    const write = putOutboxEntry(entry('as-it-left'));
    expect(await settled(write)).toBe('waiting');
    expect(await settled(loadOutboxEntries())).toBe('waiting');
    backFromBackForwardCache();
    await write;
    // The connection was closed as the page left: the work is done on a new one.
    expect(opens).toHaveBeenCalledTimes(1);
    expect((await loadOutboxEntries()).map((e) => e.clientResponseId)).toContain('as-it-left');
  });
});
