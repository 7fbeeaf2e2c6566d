import { type HostEvent, type InteractionView, type Preferences, type Snapshot } from '../contracts';
import { foldHostEvent, type HostFold } from '../state/host-fold';

/** The host's interactions as this remote knows them: a snapshot, then events folded in as the host folds them. */
export interface HostView {
  /** A live snapshot from the host has arrived on this page. */
  hasSnapshot: boolean;
  /** Showing what this device saw last time (offline start), until a live snapshot arrives. */
  cached: boolean;
  lastSeq: number;
  interactions: ReadonlyMap<string, InteractionView>;
  preferences: Preferences | null;
  hostVersion: string | null;
  /** serverTime − local time when the snapshot arrived (clock-skew correction, R9.9). */
  clockOffsetMs: number;
}

export const EMPTY_HOST_VIEW: HostView = {
  hasSnapshot: false,
  cached: false,
  lastSeq: 0,
  interactions: new Map(),
  preferences: null,
  hostVersion: null,
  clockOffsetMs: 0,
};

/** A snapshot replaces everything: after a host restart its seq may even start lower. */
export function fromSnapshot(snapshot: Snapshot, localNow: number): HostView {
  const interactions = new Map<string, InteractionView>();
  for (const view of snapshot.history) interactions.set(view.requestId, view);
  for (const view of snapshot.pending) interactions.set(view.requestId, view);
  return {
    hasSnapshot: true,
    cached: false,
    lastSeq: snapshot.seq,
    interactions,
    preferences: snapshot.preferences,
    hostVersion: snapshot.hostVersion,
    clockOffsetMs: Date.parse(snapshot.serverTime) - localNow,
  };
}

/**
 * Applies a batch in seq order, dropping anything at or below lastSeq (duplicates after a resume).
 * The shared fold works on a copy of the interactions: one copy per batch, O(1) per event, and the
 * previous view stays as it was (React compares by identity).
 */
export function applyEvents(view: HostView, events: readonly HostEvent[]): HostView {
  const fresh = events.filter((event) => event.seq > view.lastSeq).sort((a, b) => a.seq - b.seq);
  if (fresh.length === 0) return view;
  const fold: HostFold = {
    seq: view.lastSeq,
    preferences: view.preferences,
    interactions: new Map(view.interactions),
  };
  for (const event of fresh) foldHostEvent(fold, event);
  return { ...view, interactions: fold.interactions, preferences: fold.preferences, lastSeq: fold.seq };
}
