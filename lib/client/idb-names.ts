// The app's IndexedDB, by name: its own module, so the inline read in <head> (./cache-prefetch.ts) and the first
// screen name it without carrying the code that opens and writes it (./outbox-db.ts, ./state-cache.ts).

export const DB_NAME = 'askaway';
export const OUTBOX_STORE = 'outbox';
/** Last known host state, so the app opens offline with what it last saw. */
export const CACHE_STORE = 'cache';
/** The one record in CACHE_STORE. */
export const CACHED_HOST_KEY = 'host';
