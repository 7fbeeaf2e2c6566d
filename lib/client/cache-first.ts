import { type OutboxEntry } from './outbox-db';
import { type Pairing } from './pairing';
import { type HostView } from './host-view';
import { fromOutboxEntry, type RemoteStore } from './store';

/** What this device kept from its last visit: the host state it saw, and the answers still in its outbox. */
export interface CachedStart {
  host: HostView | null;
  answers: readonly OutboxEntry[];
}

/**
 * Puts the last known inbox on screen before the connection exists (R9.1): the cached host state,
 * which stays marked `cached` (not live) until a snapshot replaces it, and this device's queued,
 * lost and refused answers, so a cached card shows its receipt instead of an empty form. Live state
 * is never replaced, nor the state of another host. True when a cached inbox is now shown.
 */
export function showCachedStart(store: RemoteStore, pairing: Pairing, cached: CachedStart): boolean {
  let shown = false;
  store.setState((s) => {
    if (s.host.hasSnapshot || (s.status !== 'idle' && s.hostUrl !== pairing.hostUrl)) return s;
    const answers = new Map(s.answers);
    for (const entry of cached.answers)
      if (!answers.has(entry.requestId)) answers.set(entry.requestId, fromOutboxEntry(entry));
    const host = cached.host && !s.host.cached ? cached.host : s.host;
    shown = host.cached;
    return {
      ...s,
      host,
      answers,
      hostUrl: pairing.hostUrl,
      status: s.status === 'idle' ? 'connecting' : s.status,
    };
  });
  return shown;
}
