import { type InteractionResolution, type InteractionResponse } from '../contracts';

/**
 * An answer the user submitted (R9.8). It stays in IndexedDB until the host
 * acknowledges it; a response that lost the race stays too (state 'lost'), so
 * what the user wrote is never silently dropped, less its secret answers (R12.14).
 */
export interface OutboxEntry {
  requestId: string;
  clientResponseId: string;
  response: InteractionResponse;
  createdAt: string;
  state: 'queued' | 'lost' | 'failed';
  /** The resolution that won, when this entry lost. */
  resolution?: InteractionResolution;
  error?: string;
  /** Its questions that are secret: only a queued entry holds their answers, a settled one the mask (R12.14). */
  secretQuestions?: string[];
}

import { CACHE_STORE, DB_NAME, OUTBOX_STORE } from './idb-names';

export { CACHE_STORE, CACHED_HOST_KEY, DB_NAME, OUTBOX_STORE } from './idb-names';

const STORE = OUTBOX_STORE;

let dbPromise: Promise<IDBDatabase> | null = null;
/** The connection dbPromise gave, while it is the one to use. */
let openedDb: IDBDatabase | null = null;

function openDb(): Promise<IDBDatabase> {
  dbPromise ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 2);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) {
        request.result.createObjectStore(STORE, { keyPath: 'clientResponseId' });
      }
      if (!request.result.objectStoreNames.contains(CACHE_STORE)) request.result.createObjectStore(CACHE_STORE);
    };
    request.onsuccess = () => {
      const db = request.result;
      // WebKit drops connections on its own ("Connection to Indexed Database server lost"): the next call opens
      // another instead of failing on this one until the page reloads.
      openedDb = db;
      db.onclose = () => forget(db);
      resolve(db);
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
  }).catch((error: unknown) => {
    dbPromise = null;
    throw error;
  });
  return dbPromise;
}

function forget(db: IDBDatabase): void {
  if (openedDb !== db) return;
  openedDb = null;
  dbPromise = null;
}

function transact<T>(
  db: IDBDatabase,
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
  storeName: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const tx = db.transaction(storeName, mode);
    const request = work(tx.objectStore(storeName));
    // Resolve on commit, not on request success: only then is the entry durable.
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/** A closed connection throws InvalidStateError at `transaction()`: once, the work is tried on a new one. */
function isClosedConnection(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'InvalidStateError';
}

export function run<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
  storeName = STORE,
): Promise<T> {
  return openDb().then((db) =>
    transact(db, mode, work, storeName).catch((error: unknown) => {
      if (!isClosedConnection(error)) throw error;
      forget(db);
      return openDb().then((fresh) => transact(fresh, mode, work, storeName));
    }),
  );
}

export function putOutboxEntry(entry: OutboxEntry): Promise<unknown> {
  return run('readwrite', (store) => store.put(entry));
}

export function deleteOutboxEntry(clientResponseId: string): Promise<unknown> {
  return run('readwrite', (store) => store.delete(clientResponseId));
}

export function loadOutboxEntries(): Promise<OutboxEntry[]> {
  return run('readonly', (store) => store.getAll() as IDBRequest<OutboxEntry[]>);
}
