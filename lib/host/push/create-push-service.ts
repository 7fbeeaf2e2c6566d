import path from 'node:path';
import { sendNtfy } from './ntfy-sender';
import { PushService, type PushServiceOptions } from './push-service';
import { PUSH_DB_FILE, PushSubscriptionStore } from './subscription-store';
import { SqlitePushStore, type PushStore } from './push-store';
import { type SharedPushState } from './shared-push-state';
import { adoptLegacyTopic } from './legacy-topic';
import { loadOrCreateVapidKeys } from './vapid-keys';
import { type ResolveHost } from './public-only-post';
import { createWebPushSender, type FetchLike } from './web-push-sender';

/** VAPID `sub` claim when the operator names none: push services only use it to reach the operator. */
export const DEFAULT_VAPID_SUBJECT = 'mailto:askaway@users.noreply.github.com';

export interface CreatePushServiceOptions extends Pick<
  PushServiceOptions,
  'publicUrl' | 'log' | 'collapseWindowMs' | 'rateLimitMax' | 'rateLimitWindowMs' | 'now'
> {
  dataDir: string;
  /**
   * A team hub's push state in its database (R20.60–R20.64): subscriptions, topics and keys shared by the
   * replicas instead of the data dir's, and `leading` says whether this replica sends to start with.
   */
  shared?: SharedPushState & { leading: boolean };
  /** An https: URL or mailto: address (env ASKAWAY_VAPID_SUBJECT). */
  subject?: string;
  /**
   * The owner's `askaway start --allow-private-push` (R12.20): devices may subscribe push services on this
   * machine or the LAN. Off, a push endpoint must be https on a public address, at subscribe and at send time.
   */
  allowPrivatePush?: boolean;
  /** Tests: how Web Push endpoints' names resolve (a rebinding DNS answer). */
  resolveHost?: ResolveHost;
  /** Tests: every ntfy post goes through it (a device's topic skips its DNS check then); Web Push never does. */
  fetch?: FetchLike;
}

export interface PushRuntime {
  service: PushService;
  close(): Promise<void>;
}

/** Loads (or creates) the VAPID keys and the subscription store in `dataDir`, or uses a team hub's shared ones. */
export async function createPushService(options: CreatePushServiceOptions): Promise<PushRuntime> {
  const { shared } = options;
  let vapid = shared?.vapid;
  let store: PushStore;
  if (shared) store = shared.store;
  else {
    vapid = await loadOrCreateVapidKeys(options.dataDir);
    const local = new PushSubscriptionStore(path.join(options.dataDir, PUSH_DB_FILE));
    const migrated = adoptLegacyTopic(local, new Date());
    if (migrated) options.log?.(migrated);
    store = new SqlitePushStore(local);
  }
  if (!vapid) throw new Error('no VAPID keys');
  const injected = options.fetch;
  const service = new PushService({
    ...(shared ? { leading: shared.leading, ledger: shared.ledger, presenceBoard: shared.presence } : {}),
    publicUrl: options.publicUrl,
    log: options.log,
    collapseWindowMs: options.collapseWindowMs,
    rateLimitMax: options.rateLimitMax,
    rateLimitWindowMs: options.rateLimitWindowMs,
    now: options.now,
    store,
    vapidPublicKey: vapid.publicKey,
    allowPrivatePush: options.allowPrivatePush,
    sendWebPush: createWebPushSender({
      vapid,
      subject: options.subject ?? process.env.ASKAWAY_VAPID_SUBJECT ?? DEFAULT_VAPID_SUBJECT,
      allowPrivatePush: options.allowPrivatePush,
      resolveHost: options.resolveHost,
    }),
    ...(injected ? { sendNtfy: (topic, message) => sendNtfy(topic.url, message, { post: injected }) } : {}),
  });
  return {
    service,
    async close() {
      await service.idle();
      await store.close();
    },
  };
}
