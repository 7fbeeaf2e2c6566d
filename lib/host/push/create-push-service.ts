import path from 'node:path';
import { sendNtfy } from './ntfy-sender';
import { PushService, type PushServiceOptions } from './push-service';
import { PUSH_DB_FILE, PushSubscriptionStore } from './subscription-store';
import { adoptLegacyTopic } from './legacy-topic';
import { loadOrCreateVapidKeys } from './vapid-keys';
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
  /** Tests: every push and every ntfy post goes through it (a device's topic skips its DNS check then). */
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
    sendWebPush: createWebPushSender({
      vapid,
      subject: options.subject ?? process.env.ASKAWAY_VAPID_SUBJECT ?? DEFAULT_VAPID_SUBJECT,
      fetch: options.fetch,
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
