import { CACHE_STORE, CACHED_HOST_KEY, DB_NAME, OUTBOX_STORE, type OutboxEntry } from './outbox-db';
import { type CachedHost } from './state-cache';

/** What the inline script read: the cached host record and the outbox, or null (no database yet, or a failure). */
export interface EarlyCacheRead {
  host: CachedHost | undefined;
  outbox: OutboxEntry[];
}

declare global {
  interface Window {
    __askawayCacheRead?: Promise<EarlyCacheRead | null>;
  }
}

const name = (value: string) => JSON.stringify(value);

/**
 * Runs inline in <head> (app/layout.tsx), so reading the inbox this device saw last starts as the
 * HTML is parsed rather than once the app's scripts have loaded: on a warm start that read would
 * otherwise finish after React hydrates, and the first question would wait for it (R9.13, R13.6).
 * It never creates the database: a first visit aborts the upgrade and resolves null.
 */
export const CACHE_PREFETCH_SCRIPT = `window.__askawayCacheRead=new Promise(function(done){try{var open=indexedDB.open(${name(DB_NAME)});open.onupgradeneeded=function(){open.transaction.abort()};open.onerror=function(){done(null)};open.onsuccess=function(){var db=open.result;try{var tx=db.transaction([${name(CACHE_STORE)},${name(OUTBOX_STORE)}],'readonly'),host=tx.objectStore(${name(CACHE_STORE)}).get(${name(CACHED_HOST_KEY)}),outbox=tx.objectStore(${name(OUTBOX_STORE)}).getAll();tx.oncomplete=function(){db.close();done({host:host.result,outbox:outbox.result})};tx.onerror=tx.onabort=function(){db.close();done(null)}}catch(e){db.close();done(null)}}}catch(e){done(null)}});`;

/** The inline script's read, if it ran on this page and succeeded. */
export function takeEarlyCacheRead(): Promise<EarlyCacheRead | null> {
  const read = typeof window === 'undefined' ? undefined : window.__askawayCacheRead;
  window.__askawayCacheRead = undefined;
  return read ? read.catch(() => null) : Promise.resolve(null);
}
