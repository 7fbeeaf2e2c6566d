import { type PushStore } from './push-store';
import { type VapidKeys } from './vapid-keys';

/**
 * Which questions' notifications have gone out, kept where every replica sees it (R20.63): a replica that becomes
 * the leader sends what is due and not yet sent, and nothing that was.
 */
export interface NotifyLedger {
  /** Of these questions, the ones whose notification went out, from whichever replica. */
  notified(requestIds: readonly string[]): Promise<Set<string>>;
  markNotified(requestIds: readonly string[]): Promise<void>;
}

/**
 * The devices looking at the app through each replica (R20.64), so the leader can hold back a notification for a
 * device looking through another. A replica's entries are leases it renews while its devices look: a replica that
 * dies stops holding anything back once they run out.
 */
export interface PresenceBoard {
  /** Sets this replica's looking devices to exactly these, each for one more lease. */
  publish(deviceIds: readonly string[]): Promise<void>;
  /** Devices looking through any other replica, leases still running. */
  lookingElsewhere(): Promise<Set<string>>;
  /** This replica's entries go (it closes). */
  withdraw(): Promise<void>;
  /** How often a replica renews its entries: well inside one lease. */
  readonly renewEveryMs: number;
}

/** A team hub's push state, in its database and shared by the replicas; a personal hub keeps its own in the data dir. */
export interface SharedPushState {
  store: PushStore;
  vapid: VapidKeys;
  ledger: NotifyLedger;
  presence: PresenceBoard;
}
