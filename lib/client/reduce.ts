import { type HostEvent, type InteractionView, type Snapshot } from '../contracts';
import { foldHostEvent, type HostFold } from '../state/host-fold';
import { type HostView } from './host-view';

export { EMPTY_HOST_VIEW, type HostView } from './host-view';

/**
 * A snapshot replaces everything: after a host restart its seq may even start lower. Views that say
 * what `previous` said (the cached inbox, mostly) keep their identity, so their rows do not re-render.
 */
export function fromSnapshot(snapshot: Snapshot, localNow: number, previous?: HostView): HostView {
  const interactions = new Map<string, InteractionView>();
  const keep = (view: InteractionView) => {
    const old = previous?.interactions.get(view.requestId);
    interactions.set(view.requestId, old && sameData(old, view) ? old : view);
  };
  for (const view of snapshot.history) keep(view);
  for (const view of snapshot.pending) keep(view);
  return {
    hasSnapshot: true,
    cached: false,
    seenAt: null,
    lastSeq: snapshot.seq,
    logId: snapshot.logId,
    interactions,
    preferences: snapshot.preferences,
    hostVersion: snapshot.hostVersion,
    hostName: snapshot.hostName,
    devices: new Map(snapshot.devices.map((device) => [device.id, device])),
    machines: snapshot.machines,
    clockOffsetMs: Date.parse(snapshot.serverTime) - localNow,
    pendingTotal: snapshot.pendingTotal,
    pendingCursor: snapshot.pendingCursor ?? null,
  };
}

/**
 * A further page of pending interactions (R12.7). Live events have already told this remote about any
 * of them that changed since, so an interaction it knows keeps what it knows.
 */
export function withPendingPage(
  view: HostView,
  page: { pending: readonly InteractionView[]; pendingTotal: number; pendingCursor?: number },
): HostView {
  const interactions = new Map(view.interactions);
  for (const pending of page.pending)
    if (!interactions.has(pending.requestId)) interactions.set(pending.requestId, pending);
  return { ...view, interactions, pendingTotal: page.pendingTotal, pendingCursor: page.pendingCursor ?? null };
}

/**
 * Applies a batch in seq order, dropping anything at or below lastSeq (duplicates after a resume).
 * The shared fold works on a copy of the interactions: one copy per batch, O(1) per event, and the
 * previous view stays as it was (React compares by identity).
 */
export function applyEvents(view: HostView, events: readonly HostEvent[], pendingTotal?: number): HostView {
  const fresh = events.filter((event) => event.seq > view.lastSeq).sort((a, b) => a.seq - b.seq);
  const total = pendingTotal ?? view.pendingTotal;
  if (fresh.length === 0) return total === view.pendingTotal ? view : { ...view, pendingTotal: total };
  // Devices change rarely: their map is copied only for a batch that touches one.
  const touchesDevices = fresh.some((event) => event.type.startsWith('device.'));
  const fold: HostFold = {
    seq: view.lastSeq,
    preferences: view.preferences,
    interactions: new Map(view.interactions),
    devices: new Map(touchesDevices ? view.devices : []),
    // The machine list reaches the remote whole (the snapshot, the `machines` event), not through the fold.
    machines: new Map(),
    // The phone lists devices with their people from the host's answers (R21.12), not from the fold.
    people: new Map(),
    // Groups reach a team hub's app through `GET /api/team` (R21.24), not through the fold.
    groups: new Map(),
  };
  for (const event of fresh) foldHostEvent(fold, event);
  return {
    ...view,
    interactions: fold.interactions,
    preferences: fold.preferences,
    lastSeq: fold.seq,
    devices: touchesDevices ? fold.devices : view.devices,
    pendingTotal: total,
  };
}

/** Deep equality of JSON-like data, whatever the order of object keys (a cached view and a parsed one differ in it). */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameData(Reflect.get(a, key), Reflect.get(b, key)));
}
