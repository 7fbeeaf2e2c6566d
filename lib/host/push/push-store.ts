import { type PushSubscriptionJson } from '../../contracts';
import {
  type StoredSubscription,
  type StoredTopic,
  type TopicOwner,
  type PushSubscriptionStore,
} from './subscription-store';

/**
 * Where the push service keeps Web Push subscriptions and ntfy topics: a personal hub's `push.sqlite`
 * (`SqlitePushStore`), or a team hub's database, shared by its replicas (`PgPushStore`). Every method may
 * wait for the database; a refusal rejects and changes nothing.
 */
export interface PushStore {
  /** Replaces the device's subscription; an endpoint moves to the device that last sent it. */
  upsert(deviceId: string, subscription: PushSubscriptionJson, now: Date): Promise<void>;
  get(deviceId: string): Promise<StoredSubscription | undefined>;
  /** Every subscription, by device id. */
  list(): Promise<StoredSubscription[]>;
  removeDevice(deviceId: string): Promise<boolean>;
  /** Only removes the endpoint that expired, not a newer one the device sent meanwhile. */
  removeEndpoint(endpoint: string): Promise<boolean>;
  /** Every topic, the host's first. */
  ntfyTopics(): Promise<StoredTopic[]>;
  ntfyTopic(owner: TopicOwner): Promise<string | undefined>;
  /** Sets or (null) clears one owner's topic; true when something changed. */
  setNtfyTopic(owner: TopicOwner, url: string | null, now: Date): Promise<boolean>;
  close(): Promise<void>;
}

/** The personal hub's `push.sqlite` behind the shared interface. */
export class SqlitePushStore implements PushStore {
  constructor(private readonly store: PushSubscriptionStore) {}

  upsert(deviceId: string, subscription: PushSubscriptionJson, now: Date): Promise<void> {
    return attempt(() => this.store.upsert(deviceId, subscription, now));
  }
  get(deviceId: string): Promise<StoredSubscription | undefined> {
    return attempt(() => this.store.get(deviceId));
  }
  list(): Promise<StoredSubscription[]> {
    return attempt(() => this.store.list());
  }
  removeDevice(deviceId: string): Promise<boolean> {
    return attempt(() => this.store.removeDevice(deviceId));
  }
  removeEndpoint(endpoint: string): Promise<boolean> {
    return attempt(() => this.store.removeEndpoint(endpoint));
  }
  ntfyTopics(): Promise<StoredTopic[]> {
    return attempt(() => this.store.ntfyTopics());
  }
  ntfyTopic(owner: TopicOwner): Promise<string | undefined> {
    return attempt(() => this.store.ntfyTopic(owner));
  }
  setNtfyTopic(owner: TopicOwner, url: string | null, now: Date): Promise<boolean> {
    return attempt(() => this.store.setNtfyTopic(owner, url, now));
  }
  close(): Promise<void> {
    return attempt(() => this.store.close());
  }
}

/** A synchronous call as a promise: a throw becomes a rejection, as the database's refusals are. */
function attempt<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
