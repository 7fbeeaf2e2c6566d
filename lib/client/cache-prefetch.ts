import { CACHE_STORE, CACHED_HOST_KEY, DB_NAME, OUTBOX_STORE } from './idb-names';

export { type EarlyCacheRead } from './early-cache-read';

const name = (value: string) => JSON.stringify(value);

/**
 * Runs inline in <head> (app/layout.tsx), so reading the inbox this device saw last starts as the
 * HTML is parsed rather than once the app's scripts have loaded: on a warm start that read would
 * otherwise finish after React hydrates, and the first question would wait for it (R9.13, R13.6).
 * It never creates the database: a first visit aborts the upgrade and resolves null. When the read is done it
 * leaves a User Timing mark, `askaway:cache-read` (./test-hook.ts has the others).
 * Leaving for the back/forward cache aborts the read, as ./outbox-db.ts does with its own transactions (WebKit
 * keeps a suspended page's transaction open, and other pages' writes wait behind it).
 * It resolves on the last request's success, not the transaction's `complete`: a read-only transaction's
 * requests succeed in order, and `complete` is one more task: a reload's trace had it 12 ms after the last
 * success, the main thread busy hydrating in between (R13.8).
 */
export const CACHE_PREFETCH_SCRIPT = `window.__askawayCacheRead=new Promise(function(resolve){function done(v){try{performance.mark('askaway:cache-read')}catch(e){}resolve(v)}try{var open=indexedDB.open(${name(DB_NAME)});open.onupgradeneeded=function(){open.transaction.abort()};open.onerror=function(){done(null)};open.onsuccess=function(){var db=open.result;try{var tx=db.transaction([${name(CACHE_STORE)},${name(OUTBOX_STORE)}],'readonly'),host=tx.objectStore(${name(CACHE_STORE)}).get(${name(CACHED_HOST_KEY)}),outbox=tx.objectStore(${name(OUTBOX_STORE)}).getAll();outbox.onsuccess=function(){db.close();done({host:host.result,outbox:outbox.result})};tx.onerror=tx.onabort=function(){db.close();done(null)};window.addEventListener('pagehide',function(e){if(e.persisted)try{tx.abort()}catch(x){}})}catch(e){db.close();done(null)}}}catch(e){done(null)}});`;
