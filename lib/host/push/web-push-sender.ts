import { createHash } from 'node:crypto';
import webpush from 'web-push';
import { errorMessage, type PushPayload } from '../../contracts';
import { type StoredSubscription } from './subscription-store';
import { type VapidKeys } from './vapid-keys';

/** `fetch`, or a stand-in in tests. */
export type FetchLike = typeof fetch;

export type SendOutcome =
  | { status: 'sent' }
  /** 404/410: the push service forgot this subscription; it must be removed. */
  | { status: 'expired'; httpStatus: number }
  | { status: 'failed'; detail: string };

export interface WebPushSenderOptions {
  vapid: VapidKeys;
  /** VAPID `sub` claim: an https: URL or a mailto: address where push services can reach the operator. */
  subject: string;
  fetch?: FetchLike;
  timeoutMs?: number;
}

/** A new question may wake the phone; a close is bookkeeping. */
const URGENCY: Record<PushPayload['type'], webpush.Urgency> = { show: 'high', close: 'normal' };
/** A question is worth a notification for a day; after that the inbox tells the story. */
const TTL_SECONDS = 24 * 60 * 60;

/**
 * Encrypts (aes128gcm, RFC 8291) and signs (VAPID) with web-push, then sends with fetch:
 * web-push's own sendNotification insists on HTTPS, which a LAN or test endpoint may not have.
 */
export function createWebPushSender(options: WebPushSenderOptions) {
  const fetchImpl: FetchLike = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;

  return async function send(subscription: StoredSubscription, payload: PushPayload): Promise<SendOutcome> {
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
      const response = await fetchImpl(details.endpoint, {
        method: details.method,
        headers: details.headers,
        body: details.body ? new Uint8Array(details.body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status === 404 || response.status === 410) return { status: 'expired', httpStatus: response.status };
      if (response.status < 200 || response.status >= 300) {
        const text = await response.text().catch(() => '');
        return { status: 'failed', detail: `push service answered ${response.status} ${text.slice(0, 200)}`.trim() };
      }
      return { status: 'sent' };
    } catch (error) {
      return { status: 'failed', detail: `push service unreachable: ${errorMessage(error)}` };
    }
  };
}

export type WebPushSend = ReturnType<typeof createWebPushSender>;

/**
 * Push services keep only the newest undelivered message per Topic, so a phone that
 * was offline gets the close instead of a stale question, and one summary, not many.
 */
function topicFor(payload: PushPayload): string | undefined {
  const key = payload.type === 'show' ? payload.tag : payload.tags.length === 1 ? payload.tags[0] : undefined;
  if (key === undefined) return undefined;
  return createHash('sha256').update(key).digest('base64url').slice(0, 32);
}
