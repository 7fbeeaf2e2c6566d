import { getState, queuedCount, type RemoteState } from './store';

/** `window.__askaway`: app state for end-to-end tests and benchmarks, so they wait on state, not time. */
export interface AskawayTestHook {
  readonly state: RemoteState;
  readonly pendingCount: number;
  readonly lastSeq: number;
  readonly queued: number;
  /** performance.now() of the last socket connect, snapshot, and inbox commit. */
  connectedAt: number | null;
  snapshotAt: number | null;
  inboxRenderedAt: number | null;
  inboxRenderedCount: number;
  /** When the host state was last written to IndexedDB for offline start. */
  cacheSavedAt: number | null;
}

declare global {
  interface Window {
    __askaway?: AskawayTestHook;
  }
}

const marks = { connectedAt: null as number | null, snapshotAt: null as number | null };

function hook(): AskawayTestHook | undefined {
  if (typeof window === 'undefined') return undefined;
  window.__askaway ??= {
    get state() {
      return getState();
    },
    get pendingCount() {
      let count = 0;
      for (const view of getState().host.interactions.values()) if (view.status === 'pending') count += 1;
      return count;
    },
    get lastSeq() {
      return getState().host.lastSeq;
    },
    get queued() {
      return queuedCount(getState());
    },
    connectedAt: marks.connectedAt,
    snapshotAt: marks.snapshotAt,
    inboxRenderedAt: null,
    inboxRenderedCount: 0,
    cacheSavedAt: null,
  };
  return window.__askaway;
}

export function installTestHook(): void {
  hook();
}

export function markConnected(): void {
  const target = hook();
  if (target) target.connectedAt = performance.now();
}

export function markSnapshot(): void {
  const target = hook();
  if (target) target.snapshotAt = performance.now();
}

export function markInboxRendered(count: number): void {
  const target = hook();
  if (!target) return;
  target.inboxRenderedAt = performance.now();
  target.inboxRenderedCount = count;
}

export function markCacheSaved(): void {
  const target = hook();
  if (target) target.cacheSavedAt = performance.now();
}
