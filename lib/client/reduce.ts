import { type HostEvent, type InteractionView, type Preferences, type Snapshot } from '../contracts';

/** The host's interactions as this remote knows them: a fold of snapshot + events, like the host's projection. */
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

/** Applies a batch in seq order, dropping anything at or below lastSeq (duplicates after a resume). */
export function applyEvents(view: HostView, events: readonly HostEvent[]): HostView {
  const fresh = events.filter((event) => event.seq > view.lastSeq).sort((a, b) => a.seq - b.seq);
  if (fresh.length === 0) return view;
  const interactions = new Map(view.interactions);
  let preferences = view.preferences;
  let lastSeq = view.lastSeq;
  for (const event of fresh) {
    if (event.seq <= lastSeq) continue;
    lastSeq = event.seq;
    const next = applyEvent(interactions, event);
    if (next) preferences = next;
  }
  return { ...view, interactions, preferences, lastSeq };
}

function applyEvent(interactions: Map<string, InteractionView>, event: HostEvent): Preferences | null {
  switch (event.type) {
    case 'interaction.requested': {
      if (interactions.has(event.interaction.requestId)) return null;
      interactions.set(event.interaction.requestId, {
        ...event.interaction,
        status: 'pending',
        autoResolution: { status: 'disabled' },
      });
      return null;
    }
    case 'interaction.resolved': {
      const view = interactions.get(event.resolution.requestId);
      if (view?.status !== 'pending') return null;
      interactions.set(view.requestId, { ...view, status: 'resolved', resolution: event.resolution });
      return null;
    }
    case 'interaction.withdrawn': {
      const view = interactions.get(event.requestId);
      if (view?.status !== 'pending') return null;
      interactions.set(view.requestId, {
        ...view,
        status: 'withdrawn',
        withdrawnAt: event.at,
        ...(event.reason === undefined ? {} : { withdrawnReason: event.reason }),
      });
      return null;
    }
    case 'interaction.delivered': {
      const view = interactions.get(event.requestId);
      if (view?.status !== 'resolved' || view.deliveredAt !== undefined) return null;
      interactions.set(view.requestId, { ...view, deliveredAt: event.at });
      return null;
    }
    case 'UserInputAutoResolutionUpdated': {
      const view = interactions.get(event.requestId);
      if (view?.status !== 'pending') return null;
      interactions.set(view.requestId, { ...view, autoResolution: event.autoResolution });
      return null;
    }
    case 'preferences.updated':
      return event.preferences;
    default:
      return assertNever(event);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unhandled host event ${JSON.stringify(value)}`);
}
