import { type ProtocolError } from './protocol-error';
import { queuedCount, type RemoteState, type RemoteStore } from './store';

/** `window.__askaway`: app state for end-to-end tests and benchmarks, so they wait on state, not time. */
export interface AskawayTestHook {
  readonly state: RemoteState;
  readonly pendingCount: number;
  readonly lastSeq: number;
  readonly queued: number;
  /** performance.now() of the last socket connect, snapshot, catch-up (snapshot or replay), and inbox commit. */
  readonly connectedAt: number | null;
  readonly snapshotAt: number | null;
  readonly syncedAt: number | null;
  readonly inboxRenderedAt: number | null;
  readonly inboxRenderedCount: number;
  /** The inbox's first commits since the last socket connect (at most 20): when the whole inbox first showed. */
  readonly inboxCommits: readonly InboxCommit[];
  /** When the host state was last written to IndexedDB for offline start. */
  readonly cacheSavedAt: number | null;
  /** Host messages that broke the contract on this page. */
  readonly protocolErrors: readonly ProtocolError[];
}

export interface InboxCommit {
  at: number;
  count: number;
}

declare global {
  interface Window {
    __askaway?: AskawayTestHook;
  }
}

const marks = {
  connectedAt: null as number | null,
  snapshotAt: null as number | null,
  syncedAt: null as number | null,
  inboxRenderedAt: null as number | null,
  inboxRenderedCount: 0,
  cacheSavedAt: null as number | null,
};
const inboxCommits: InboxCommit[] = [];
const MAX_INBOX_COMMITS = 20;
/** The latest ones only: a host that keeps sending broken messages must not grow the page's memory. */
const protocolErrors: ProtocolError[] = [];
const MAX_PROTOCOL_ERRORS = 50;

/** Publishes `window.__askaway` for this store (once). Marks set before this call are kept. */
export function installTestHook(store: RemoteStore): void {
  if (typeof window === 'undefined' || window.__askaway) return;
  window.__askaway = {
    get state() {
      return store.getState();
    },
    get pendingCount() {
      let count = 0;
      for (const view of store.getState().host.interactions.values()) if (view.status === 'pending') count += 1;
      return count;
    },
    get lastSeq() {
      return store.getState().host.lastSeq;
    },
    get queued() {
      return queuedCount(store.getState());
    },
    get connectedAt() {
      return marks.connectedAt;
    },
    get snapshotAt() {
      return marks.snapshotAt;
    },
    get syncedAt() {
      return marks.syncedAt;
    },
    get inboxRenderedAt() {
      return marks.inboxRenderedAt;
    },
    get inboxRenderedCount() {
      return marks.inboxRenderedCount;
    },
    inboxCommits,
    get cacheSavedAt() {
      return marks.cacheSavedAt;
    },
    protocolErrors,
  };
}

function now(): number | null {
  return typeof performance === 'undefined' ? null : performance.now();
}

/** Where a page load is, as the R13.8 benchmark reads it (and DevTools' performance panel shows it). */
export type Phase = 'hydrated' | 'cached-shown' | 'live-loaded' | 'connected' | 'snapshot';

/** A User Timing mark, `askaway:<phase>`: cheap, and kept by the browser only for this page. */
export function markPhase(phase: Phase): void {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function')
    performance.mark(`askaway:${phase}`);
}

export function markConnected(): void {
  marks.connectedAt = now();
  inboxCommits.length = 0;
  markPhase('connected');
}

export function markSynced(how: 'snapshot' | 'resume'): void {
  marks.syncedAt = now();
  if (how === 'snapshot') {
    marks.snapshotAt = marks.syncedAt;
    markPhase('snapshot');
  }
}

export function markInboxRendered(count: number): void {
  marks.inboxRenderedAt = now();
  marks.inboxRenderedCount = count;
  if (marks.inboxRenderedAt !== null && inboxCommits.length < MAX_INBOX_COMMITS)
    inboxCommits.push({ at: marks.inboxRenderedAt, count });
}

export function markCacheSaved(): void {
  marks.cacheSavedAt = now();
}

export function recordProtocolError(error: ProtocolError): void {
  protocolErrors.push(error);
  if (protocolErrors.length > MAX_PROTOCOL_ERRORS) protocolErrors.shift();
}
