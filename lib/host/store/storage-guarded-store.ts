import { type HostEvent, type NewHostEvent } from '../../contracts';
import { type CredentialKind, type CredentialStore, type NewCredential } from './credential-store';
import { type EventStore } from './event-store';
import { StorageUnavailableError, type StorageHealth } from './storage-health';

/**
 * The host's store with every write going through `health` (R10.4): a full or failing disk gives
 * callers a StorageUnavailableError with a reason instead of an exception from deep in SQLite.
 */
export function withStorageHealth(store: EventStore, health: StorageHealth): EventStore {
  const credentials: CredentialStore = {
    add: (credential: NewCredential) => health.write('the credential store', () => store.credentials.add(credential)),
    secretHash: (kind: CredentialKind, id: string) => store.credentials.secretHash(kind, id),
    // A last-seen time is a convenience of lists: on a full disk it is skipped, never a reason to refuse a connection.
    setLastSeen: (kind: CredentialKind, id: string, at: string) => {
      try {
        health.write('the credential store', () => store.credentials.setLastSeen(kind, id, at));
      } catch (error) {
        if (!(error instanceof StorageUnavailableError)) throw error;
      }
    },
    lastSeen: (kind: CredentialKind) => store.credentials.lastSeen(kind),
  };
  return {
    get logId() {
      return store.logId;
    },
    credentials,
    append: (events: readonly NewHostEvent[]): HostEvent[] => health.write('the event log', () => store.append(events)),
    readSince: (afterSeq: number, limit: number) => store.readSince(afterSeq, limit),
    lastSeq: () => store.lastSeq(),
    close: () => store.close(),
  };
}
