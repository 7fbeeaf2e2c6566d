import { type InteractionView, type Preferences } from '../contracts';
import { REMOTE_PROTOCOL_VERSION } from '../contracts/limits';
import { CACHE_STORE, CACHED_HOST_KEY, run } from './outbox-db';
import { type HostView } from './host-view';
import { markCacheSaved } from './test-hook';

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

const KEY = CACHED_HOST_KEY;
const SAVE_DELAY_MS = 800;
let timer: ReturnType<typeof setTimeout> | null = null;

/** The last host state this device saw, for opening offline (R9.1, R9.8). Null if none for this host. */
export async function loadCachedHost(hostUrl: string): Promise<HostView | null> {
  try {
    const cached = await run('readonly', (store) => store.get(KEY) as IDBRequest<CachedHost | undefined>, CACHE_STORE);
    return cachedHostView(cached, hostUrl);
  } catch {
    return null;
  }
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

/** Saves a little after the last change: a burst of events costs one write. */
export function scheduleCacheSave(hostUrl: string, host: HostView): void {
  if (!host.hasSnapshot) return;
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    const value: CachedHost = {
      hostUrl,
      lastSeq: host.lastSeq,
      interactions: [...host.interactions.values()],
      preferences: host.preferences,
      hostVersion: host.hostVersion,
      clockOffsetMs: host.clockOffsetMs,
      seenAt: new Date().toISOString(),
      protocolVersion: REMOTE_PROTOCOL_VERSION,
    };
    void run('readwrite', (store) => store.put(value, KEY), CACHE_STORE).then(markCacheSaved, () => undefined);
  }, SAVE_DELAY_MS);
}

export function clearCachedHost(): Promise<unknown> {
  if (timer) clearTimeout(timer);
  timer = null;
  return run('readwrite', (store) => store.delete(KEY), CACHE_STORE).catch(() => undefined);
}
