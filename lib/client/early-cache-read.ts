import { type CachedHost } from './cached-host';
import { type OutboxEntry } from './outbox-db';

// The first screen's side of ./cache-prefetch.ts, whose inline script only the layout carries.

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

/** The inline script's read, if it ran on this page and succeeded. */
export function takeEarlyCacheRead(): Promise<EarlyCacheRead | null> {
  const read = typeof window === 'undefined' ? undefined : window.__askawayCacheRead;
  window.__askawayCacheRead = undefined;
  return read ? read.catch(() => null) : Promise.resolve(null);
}
