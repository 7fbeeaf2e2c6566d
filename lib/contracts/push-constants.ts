// Zod-free, so the service worker can import these without bundling zod.

/** Tag of the one notification that stands for a burst ("10 questions waiting"). */
export const PUSH_SUMMARY_TAG = 'askaway-summary';
/** Tag of the settings page's test notification. */
export const PUSH_TEST_TAG = 'askaway-test';
/** Web Push payloads must stay well under the ~4 KB push services accept. */
export const PUSH_TITLE_MAX = 120;
export const PUSH_BODY_MAX = 600;
export const PUSH_URL_MAX = 2_000;
/** A tag is an interaction's host id (at most INTERACTION_ID_MAX) or one of the fixed tags above. */
export const PUSH_TAG_MAX = 217;

/** The deep link of one interaction's card (R9: tapping a notification opens that card). */
export function cardPath(requestId: string): string {
  return `/card?id=${encodeURIComponent(requestId)}`;
}
/** The inbox, where a summary notification leads. */
export const INBOX_PATH = '/';

/**
 * `POST` a device's answer from its service worker (R14.10): `Authorization: Bearer <device credential>`, a
 * RespondCommand as the body, the socket's `respond` ack back inside a DeviceRespondReply.
 */
export const RESPOND_API_PATH = '/api/respond';
/** Answer buttons one notification may carry at most (an approval's choices beyond them stay in the app). */
export const NOTIFICATION_ANSWERS_MAX = 4;
/** A notification whose payload with its answers would pass this many bytes of JSON goes without them. */
export const PUSH_PAYLOAD_ANSWERS_MAX_BYTES = 3_000;
