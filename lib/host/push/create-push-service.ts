import path from 'node:path';
import { sendNtfy } from './ntfy-sender';
import { PushService, type PushServiceOptions } from './push-service';
import { PUSH_DB_FILE, PushSubscriptionStore } from './subscription-store';
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

/** Loads (or creates) the VAPID keys and the subscription store in `dataDir`. */
export async function createPushService(options: CreatePushServiceOptions): Promise<PushRuntime> {
  const vapid = await loadOrCreateVapidKeys(options.dataDir);
  const store = new PushSubscriptionStore(path.join(options.dataDir, PUSH_DB_FILE));
  const migrated = adoptLegacyTopic(store, new Date());
  if (migrated) options.log?.(migrated);
  const injected = options.fetch;
  const service = new PushService({
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
      store.close();
    },
  };
}
