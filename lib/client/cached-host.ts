import { type InteractionView, type Preferences } from '../contracts';
import { REMOTE_PROTOCOL_VERSION } from '../contracts/limits';
import { type HostView } from './host-view';

// The saved host state as the first screen reads it (R9.13); ./state-cache.ts reads and writes it in IndexedDB.

export interface CachedHost {
  hostUrl: string;
  lastSeq: number;
  interactions: InteractionView[];
  preferences: Preferences | null;
  hostVersion: string | null;
  clockOffsetMs: number;
  /** When it was saved: the last moment this device saw it live (absent in caches of older versions). */
  seenAt?: string;
  /** The remote protocol its views follow: a record from another version is not shown (its views lack fields). */
  protocolVersion?: number;
}

/** A saved record as the view shown until the live snapshot (marked cached); null when it is another host's or another protocol version's. */
export function cachedHostView(cached: CachedHost | undefined, hostUrl: string): HostView | null {
  if (!cached || cached.hostUrl !== hostUrl || cached.protocolVersion !== REMOTE_PROTOCOL_VERSION) return null;
  return {
    hasSnapshot: false,
    cached: true,
    seenAt: cached.seenAt ?? null,
    lastSeq: 0,
    logId: null,
    interactions: new Map(cached.interactions.map((view) => [view.requestId, view])),
    preferences: cached.preferences,
    hostVersion: cached.hostVersion,
    hostName: null,
    devices: new Map(),
    // Who is connected now is only known live; the cached inbox still names each item's machine.
    machines: [],
    clockOffsetMs: cached.clockOffsetMs,
    pendingTotal: 0,
    pendingCursor: null,
  };
}
