import { createHash } from 'node:crypto';
import webpush from 'web-push';
import { errorMessage, type PushPayload } from '../../contracts';
import { ownerPost, publicOnlyPost, resolveWithDns, type Post, type ResolveHost } from './public-only-post';
import { type StoredSubscription } from './subscription-store';
import { deviceWebPushRefusal } from './topic-address';
import { type VapidKeys } from './vapid-keys';

/** `fetch`, or a stand-in in tests (ntfy topics only: Web Push never goes through fetch, which follows redirects). */
export type FetchLike = typeof fetch;

export type SendOutcome =
  | { status: 'sent' }
  /** 404/410: the push service forgot this subscription; it must be removed. */
  | { status: 'expired'; httpStatus: number }
  /** `detail` may reach the device (a status, never the server's words, R12.20); `answer` is for the owner's log. */
  | { status: 'failed'; detail: string; answer?: string };

export interface WebPushSenderOptions {
  vapid: VapidKeys;
  /** VAPID `sub` claim: an https: URL or a mailto: address where push services can reach the operator. */
  subject: string;
  /**
   * The owner's `--allow-private-push` (R12.20): push services on this machine or the LAN, plain http too.
   * Without it an endpoint must be https on a public address, checked again on the address connected to.
   */
  allowPrivatePush?: boolean;
  /** How names are resolved for the public-only check (tests stand in a rebinding DNS answer). */
  resolveHost?: ResolveHost;
  timeoutMs?: number;
}

/** A new question may wake the phone; a close is bookkeeping. */
const URGENCY: Record<PushPayload['type'], webpush.Urgency> = { show: 'high', close: 'normal' };
/** A question is worth a notification for a day; after that the inbox tells the story. */
const TTL_SECONDS = 24 * 60 * 60;

/**
 * Encrypts (aes128gcm, RFC 8291) and signs (VAPID) with web-push, then sends one request of our own
 * (R12.20): to a public address checked at connect time unless the owner allowed private ones, and never
 * to a second URL, since a 30x is a failure, not a redirect to follow. (web-push's own sendNotification
 * insists on HTTPS, which the owner's LAN push service may not have.)
 */
export function createWebPushSender(options: WebPushSenderOptions) {
  const post: Post = options.allowPrivatePush
    ? ownerPost
    : publicOnlyPost(options.resolveHost ?? resolveWithDns, deviceWebPushRefusal);
  const timeoutMs = options.timeoutMs ?? 10_000;

  return async function send(subscription: StoredSubscription, payload: PushPayload): Promise<SendOutcome> {
    // Checked at send time too: a subscription stored by an older host, or before the owner took the option back.
    const refusal = options.allowPrivatePush ? undefined : deviceWebPushRefusal(subscription.endpoint);
    if (refusal) return { status: 'failed', detail: `push endpoint refused: ${refusal}` };
    let details: webpush.RequestDetails;
    try {
      details = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: subscription.keys },
        JSON.stringify(payload),
        {
          vapidDetails: {
            subject: options.subject,
            publicKey: options.vapid.publicKey,
            privateKey: options.vapid.privateKey,
          },
          TTL: TTL_SECONDS,
          urgency: URGENCY[payload.type],
          topic: topicFor(payload),
          contentEncoding: 'aes128gcm',
        },
      );
    } catch (error) {
      return { status: 'failed', detail: `cannot build the push: ${errorMessage(error)}` };
    }
    try {
      const response = await post(details.endpoint, {
        method: 'POST',
        headers: stringHeaders(details.headers),
        body: details.body ? new Uint8Array(details.body) : new Uint8Array(0),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status === 404 || response.status === 410) return { status: 'expired', httpStatus: response.status };
      if (response.status < 200 || response.status >= 300) {
        const text = await response.text().catch(() => '');
        const redirect = response.status >= 300 && response.status < 400 ? ' (a redirect, not followed)' : '';
        return {
          status: 'failed',
          detail: `push service answered ${response.status}${redirect}`,
          answer: text.slice(0, 200),
        };
      }
      return { status: 'sent' };
    } catch (error) {
      return { status: 'failed', detail: `push service unreachable: ${errorMessage(error)}` };
    }
  };
}

export type WebPushSend = ReturnType<typeof createWebPushSender>;

/** web-push builds header values as numbers and strings; a request takes strings. */
function stringHeaders(headers: webpush.Headers): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));
}

/**
 * Push services keep only the newest undelivered message per Topic, so a phone that
 * was offline gets the close instead of a stale question, and one summary, not many.
 */
function topicFor(payload: PushPayload): string | undefined {
  const key = payload.type === 'show' ? payload.tag : payload.tags.length === 1 ? payload.tags[0] : undefined;
  if (key === undefined) return undefined;
  return createHash('sha256').update(key).digest('base64url').slice(0, 32);
}
