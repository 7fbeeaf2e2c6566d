import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CACHE_PREFETCH_SCRIPT, type EarlyCacheRead } from './cache-prefetch';
import { CACHE_STORE, CACHED_HOST_KEY, DB_NAME, OUTBOX_STORE } from './outbox-db';
import { ANSWER } from './test-support/connection-harness';
import { at, questionView } from './test-support/fixtures';

type PageHide = (event: { persisted: boolean }) => void;

/** Runs the inline script as the page would, against this IndexedDB; `onPageHide` gets its pagehide listener. */
function runScript(factory: IDBFactory, onPageHide: (listener: PageHide) => void = () => undefined) {
  const page: {
    __askawayCacheRead?: Promise<EarlyCacheRead | null>;
    addEventListener: (type: string, listener: PageHide) => void;
  } = { addEventListener: (type, listener) => type === 'pagehide' && onPageHide(listener) };
  // The script is a string for a <script> tag: evaluating it is the point of this test.
  new Function('window', 'indexedDB', CACHE_PREFETCH_SCRIPT)(page, factory);
  if (!page.__askawayCacheRead) throw new Error('the script did not start a read');
  return page.__askawayCacheRead;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** The app's database as outbox-db.ts creates it (version 2), with a saved inbox and one queued answer. */
async function appDatabase(factory: IDBFactory): Promise<void> {
  const open = factory.open(DB_NAME, 2);
  open.onupgradeneeded = () => {
    open.result.createObjectStore(OUTBOX_STORE, { keyPath: 'clientResponseId' });
    open.result.createObjectStore(CACHE_STORE);
  };
  const db = await request(open);
  const tx = db.transaction([CACHE_STORE, OUTBOX_STORE], 'readwrite');
  tx.objectStore(CACHE_STORE).put({ hostUrl: '', interactions: [questionView('q1')], seenAt: at(20) }, CACHED_HOST_KEY);
  tx.objectStore(OUTBOX_STORE).put({
    requestId: 'q1',
    clientResponseId: 'a1',
    response: ANSWER,
    createdAt: at(21),
    state: 'queued',
  });
  await new Promise((resolve) => (tx.oncomplete = resolve));
  db.close();
}

describe('reading the last known inbox from <head>', () => {
  it('[R9.13] reads the saved inbox and the outbox in one go', async () => {
    const factory = new IDBFactory();
    await appDatabase(factory);
    const read = await runScript(factory);
    expect(read?.host?.interactions.map((view) => view.requestId)).toEqual(['q1']);
    expect(read?.host?.seenAt).toBe(at(20));
    expect(read?.outbox).toEqual([expect.objectContaining({ clientResponseId: 'a1', state: 'queued' })]);
  });

  it('[R9.13] leaving for the back/forward cache mid-read ends the read: it reads as nothing', async () => {
    const factory = new IDBFactory();
    await appDatabase(factory);
    // The page leaves as soon as its read has begun.
    await expect(runScript(factory, (pageHide) => pageHide({ persisted: true }))).resolves.toBeNull();
  });

  it('[R9.13] a pagehide that is not for the back/forward cache leaves the read alone', async () => {
    const factory = new IDBFactory();
    await appDatabase(factory);
    const read = await runScript(factory, (pageHide) => pageHide({ persisted: false }));
    expect(read?.host?.interactions.map((view) => view.requestId)).toEqual(['q1']);
  });

  it('[R9.13] on a first visit it finds nothing and creates no database', async () => {
    const factory = new IDBFactory();
    await expect(runScript(factory)).resolves.toBeNull();
    expect(await factory.databases()).toEqual([]);
  });

  it('[R9.13] a database of an older version (no cache store) reads as nothing', async () => {
    const factory = new IDBFactory();
    const open = factory.open(DB_NAME, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(OUTBOX_STORE, { keyPath: 'clientResponseId' });
    (await request(open)).close();
    await expect(runScript(factory)).resolves.toBeNull();
  });
});
