import { type HostEvent, type NewHostEvent } from '../../contracts';
import { type OneTimeCodeBook } from '../auth/one-time-codes';
import { type CredentialKind, type CredentialStore, type NewCredential } from './credential-store';
import { type AppendOptions, type EventStore } from './event-store';
import { rememberingCredentials } from './remembered-credentials';
import { StorageUnavailableError, type StorageHealth } from './storage-health';

/**
 * The host's store with every write going through `health` (R10.4): a full or failing disk gives
 * callers a StorageUnavailableError with a reason instead of an exception from deep in SQLite. A
 * LogMovedError is no refusal by the disk and passes through unchanged.
 */
export function withStorageHealth(store: EventStore, health: StorageHealth): EventStore {
  const credentials: CredentialStore = {
    add: (credential: NewCredential) => health.write('the credential store', () => store.credentials.add(credential)),
    secretHash: (kind: CredentialKind, id: string) => store.credentials.secretHash(kind, id),
    // A last-seen time is a convenience of lists: on a full disk it is skipped, never a reason to refuse a connection.
    setLastSeen: async (kind: CredentialKind, id: string, at: string) => {
      try {
        await health.write('the credential store', () => store.credentials.setLastSeen(kind, id, at));
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
    credentials: rememberingCredentials(credentials),
    append: (events: readonly NewHostEvent[], options?: AppendOptions): Promise<HostEvent[]> =>
      health.write('the event log', () => store.append(events, options)),
    readSince: (afterSeq: number, limit: number) => store.readSince(afterSeq, limit),
    readSeqs: (seqs: readonly number[]) => store.readSeqs(seqs),
    lastSeq: () => store.lastSeq(),
    watch: (listener: (lastSeq: number) => void) => store.watch(listener),
    close: () => store.close(),
  };
}

/** A team hub's one-time codes with their writes (minting, redeeming) refused as the log's are (R20.19, R20.42). */
export function codesWithStorageHealth(codes: OneTimeCodeBook, health: StorageHealth): OneTimeCodeBook {
  const what = 'the pairing and join codes';
  return {
    mint: (purpose, ttlMs) => health.write(what, () => codes.mint(purpose, ttlMs)),
    redeem: (purpose, candidate) => health.write(what, () => codes.redeem(purpose, candidate)),
    exchange: (purpose, candidate, run) => health.write(what, () => codes.exchange(purpose, candidate, run)),
    count: (purpose) => codes.count(purpose),
  };
}
