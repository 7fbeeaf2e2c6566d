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

/** Transactions not yet settled: what leaving for the back/forward cache has to end. */
const unsettled = new Set<IDBTransaction>();
/** Those it ended: their work is done again once the page is back. */
const endedForCache = new WeakSet<IDBTransaction>();
/** Set while the page is in the back/forward cache; resolves when it is shown again. */
let hidden: { shown: Promise<void>; show: () => void } | null = null;

/** Thrown inside run() only: the work is redone once the page is shown again. */
class LeftForBackForwardCache extends Error {}

function transact<T>(
  db: IDBDatabase,
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
  storeName: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const tx = db.transaction(storeName, mode);
    const request = work(tx.objectStore(storeName));
    unsettled.add(tx);
    // Resolve on commit, not on request success: only then is the entry durable.
    tx.oncomplete = () => {
      unsettled.delete(tx);
      resolve(request.result);
    };
    // An abort first fails each open request, and that error reaches the transaction before its abort does.
    const fail = (fallback: string) => () => {
      unsettled.delete(tx);
      reject(endedForCache.has(tx) ? new LeftForBackForwardCache() : (tx.error ?? new Error(fallback)));
    };
    tx.onerror = fail('IndexedDB transaction failed');
    tx.onabort = fail('IndexedDB transaction aborted');
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
  const attempt = (afterClose: boolean): Promise<T> =>
    (hidden?.shown ?? Promise.resolve()).then(openDb).then((db) =>
      transact(db, mode, work, storeName).catch((error: unknown) => {
        if (error instanceof LeftForBackForwardCache) return attempt(afterClose);
        if (afterClose || !isClosedConnection(error)) throw error;
        forget(db);
        return attempt(true);
      }),
    );
  return attempt(false);
}

/**
 * WebKit keeps a transaction of a page in the back/forward cache open (its events wait for the page to come
 * back), and every other page's and the service worker's writes to that store wait behind it: an inbox left a
 * moment after it opened stopped the next one's cache writes for good, and would have stopped the outbox's.
 * So the page ends what it has open as it leaves, and does that work again if it comes back.
 */
export function leaveForBackForwardCache(): void {
  if (hidden) return;
  let show: () => void = () => undefined;
  const shown = new Promise<void>((resolve) => {
    show = resolve;
  });
  hidden = { shown, show };
  for (const tx of unsettled) {
    endedForCache.add(tx);
    try {
      tx.abort();
    } catch {
      // Already finishing: it settles by itself.
    }
  }
  const db = openedDb;
  if (db) {
    forget(db);
    db.close();
  }
}

export function backFromBackForwardCache(): void {
  const was = hidden;
  hidden = null;
  was?.show();
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', (event) => {
    if (event.persisted) leaveForBackForwardCache();
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) backFromBackForwardCache();
  });
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
