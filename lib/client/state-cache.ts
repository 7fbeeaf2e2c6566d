import { REMOTE_PROTOCOL_VERSION } from '../contracts/limits';
import { cachedHostView, type CachedHost } from './cached-host';
import { CACHE_STORE, CACHED_HOST_KEY, run } from './outbox-db';
import { type HostView } from './host-view';

export { cachedHostView, type CachedHost } from './cached-host';
import { markCacheSaved } from './test-hook';

const KEY = CACHED_HOST_KEY;
const SAVE_DELAY_MS = 800;
const IDLE_TIMEOUT_MS = 2_000;
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

let latest: { hostUrl: string; host: HostView } | null = null;
let idle: number | null = null;

/** The write itself: a structured clone of every interaction on the main thread, then IndexedDB. */
function saveLatest(): void {
  idle = null;
  if (!latest) return;
  const { hostUrl, host } = latest;
  latest = null;
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
}

/**
 * Saves a little after the first unsaved change, with what is latest by then: a burst of events costs one write,
 * and a steady stream of them (each sooner than the delay) still gets written, where waiting for a quiet moment
 * never came on a busy host. The write waits for an idle moment (at most IDLE_TIMEOUT_MS more): its clone of every
 * interaction landing between a question's arrival and the frame that shows it was what made an open inbox's slowest
 * arrivals twice the plain page's (R13.9).
 */
export function scheduleCacheSave(hostUrl: string, host: HostView): void {
  if (!host.hasSnapshot) return;
  latest = { hostUrl, host };
  if (timer || idle !== null) return;
  timer = setTimeout(() => {
    timer = null;
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(saveLatest, { timeout: IDLE_TIMEOUT_MS });
    else saveLatest();
  }, SAVE_DELAY_MS);
}

export function clearCachedHost(): Promise<unknown> {
  if (timer) clearTimeout(timer);
  timer = null;
  if (idle !== null && typeof cancelIdleCallback === 'function') cancelIdleCallback(idle);
  idle = null;
  latest = null;
  return run('readwrite', (store) => store.delete(KEY), CACHE_STORE).catch(() => undefined);
}
