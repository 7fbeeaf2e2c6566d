import * as z from 'zod/mini';
import { InteractionIdSchema, InteractionResponseSchema, IsoTimeSchema } from './interaction';
import { NOTIFICATION_ANSWERS_MAX, PUSH_BODY_MAX, PUSH_TAG_MAX, PUSH_TITLE_MAX, PUSH_URL_MAX } from './push-constants';
import { RespondAckSchema } from './wire';

export * from './push-constants';

const base64Url = (min: number, max: number) =>
  z
    .string()
    .check(z.minLength(min), z.maxLength(max), z.regex(/^[A-Za-z0-9_-]+={0,2}$/, { message: 'Must be base64url' }));

const httpUrl = z.string().check(
  z.maxLength(PUSH_URL_MAX),
  z.refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    },
    { message: 'Must be an http(s) URL' },
  ),
);

/** `PushSubscription.toJSON()` as the browser produces it. */
export const PushSubscriptionJsonSchema = z.strictObject({
  endpoint: httpUrl,
  expirationTime: z.optional(z.nullable(z.number())),
  keys: z.strictObject({ p256dh: base64Url(40, 200), auth: base64Url(8, 64) }),
});
export type PushSubscriptionJson = z.infer<typeof PushSubscriptionJsonSchema>;

/* ------------------------------------------------------------- remote → host messages */

/** Stores (or replaces) this device's subscription. */
export const PushSubscribeCommandSchema = z.strictObject({ subscription: PushSubscriptionJsonSchema });
export type PushSubscribeCommand = z.infer<typeof PushSubscribeCommandSchema>;

/** Forgets this device's subscription. */
export const PushUnsubscribeCommandSchema = z.strictObject({});
export type PushUnsubscribeCommand = z.infer<typeof PushUnsubscribeCommandSchema>;

/** Sends a test notification to this device (and to the ntfy topic when one is set). */
export const PushTestCommandSchema = z.strictObject({});
export type PushTestCommand = z.infer<typeof PushTestCommandSchema>;

/**
 * Sets (or clears, with null) this device's own ntfy topic URL: the host takes only https on a public
 * address from a device (R12.15); the owner sets one on the LAN with `askaway ntfy set`.
 */
export const PushNtfyCommandSchema = z.strictObject({ topicUrl: z.nullable(httpUrl) });
export type PushNtfyCommand = z.infer<typeof PushNtfyCommandSchema>;

/** Whether this connection's app is open and visible: no push reaches a device that is looking. */
export const PresenceSchema = z.strictObject({ visible: z.boolean() });
export type Presence = z.infer<typeof PresenceSchema>;

/* ------------------------------------------------------------------------- acks */

const wireError = z.strictObject({
  code: z.enum(['invalid-message', 'internal', 'rate-limited', 'payload-too-large']),
  message: z.string(),
});
const pushFailure = z.strictObject({ ok: z.literal(false), error: wireError });
export type PushFailure = z.infer<typeof pushFailure>;

export const PushVapidKeyAckSchema = z.union([
  z.strictObject({ ok: z.literal(true), publicKey: z.string() }),
  pushFailure,
]);
export type PushVapidKeyAck = z.infer<typeof PushVapidKeyAckSchema>;

/** One ntfy topic the host posts to, beside whoever set it (Settings → Devices, R12.15). */
export const NtfyTopicViewSchema = z.strictObject({
  /** The device that set it; null: the owner, on the host's CLI. */
  deviceId: z.nullable(z.string()),
  /** In full for the asking device's own topic; anyone else's only as where it goes (`https://ntfy.sh/…`). */
  url: z.string().check(z.maxLength(PUSH_URL_MAX)),
});
export type NtfyTopicView = z.infer<typeof NtfyTopicViewSchema>;

/** What the settings page shows: is this device subscribed, its own ntfy topic, and every topic set. */
export const PushStatusSchema = z.strictObject({
  subscribed: z.boolean(),
  ntfyTopicUrl: z.nullable(z.string()),
  ntfyTopics: z.array(NtfyTopicViewSchema),
});
export type PushStatus = z.infer<typeof PushStatusSchema>;

export const PushStatusAckSchema = z.union([
  z.strictObject({ ok: z.literal(true), status: PushStatusSchema }),
  pushFailure,
]);
export type PushStatusAck = z.infer<typeof PushStatusAckSchema>;

/** Result of a test: how many targets accepted it, and why others did not. */
export const PushTestAckSchema = z.union([
  z.strictObject({
    ok: z.literal(true),
    webPush: z.enum(['sent', 'not-subscribed', 'expired', 'failed']),
    ntfy: z.enum(['sent', 'not-configured', 'failed']),
    detail: z.optional(z.string().check(z.maxLength(500))),
  }),
  pushFailure,
]);
export type PushTestAck = z.infer<typeof PushTestAckSchema>;

export interface PushClientToServerEvents {
  'push:vapid-key': (ack: (result: PushVapidKeyAck) => void) => void;
  'push:status': (ack: (result: PushStatusAck) => void) => void;
  'push:subscribe': (command: unknown, ack: (result: PushStatusAck) => void) => void;
  'push:unsubscribe': (command: unknown, ack: (result: PushStatusAck) => void) => void;
  'push:ntfy': (command: unknown, ack: (result: PushStatusAck) => void) => void;
  'push:test': (command: unknown, ack: (result: PushTestAck) => void) => void;
  presence: (presence: unknown) => void;
}

/* ------------------------------------------------------------- host → worker payload */

/**
 * One answer a notification's button sends (R14.8): its label is the card's own for exactly this response.
 * `outcome` words the receipt that replaces the notification after the press.
 */
export const NotificationAnswerSchema = z.strictObject({
  title: z.string().check(z.minLength(1), z.maxLength(PUSH_TITLE_MAX)),
  outcome: z.enum(['allowed', 'denied', 'answered']),
  response: InteractionResponseSchema,
  /** The label is the app's own word (a tool permission's Allow and Deny): the device shows it in its language. */
  appLabel: z.optional(z.enum(['allow', 'deny'])),
});
export type NotificationAnswer = z.infer<typeof NotificationAnswerSchema>;

/** What a notification carries in `notification.data`: where tapping it leads. */
export const NotificationDataSchema = z.strictObject({
  kind: z.enum(['interaction', 'summary', 'test']),
  /** Same-origin path; the worker refuses anything else. */
  url: z.string().check(z.maxLength(PUSH_URL_MAX)),
  requestId: z.optional(InteractionIdSchema),
  /** The agent that asked, for the receipt ("received by Codex"). */
  agent: z.optional(z.string().check(z.maxLength(PUSH_TITLE_MAX))),
  /**
   * The answers its buttons may send, most important first (R14.8, R14.9). `fit: 'first'`: a device shows as
   * many as it can and the rest stay on the card (an approval's choices); `'all'`: all of them or none (a
   * question's options, where a missing one would change what the question offers).
   */
  answers: z.optional(z.array(NotificationAnswerSchema).check(z.minLength(1), z.maxLength(NOTIFICATION_ANSWERS_MAX))),
  fit: z.optional(z.enum(['first', 'all'])),
});
export type NotificationData = z.infer<typeof NotificationDataSchema>;

const tag = z.string().check(z.minLength(1), z.maxLength(PUSH_TAG_MAX));

export const PushShowPayloadSchema = z.strictObject({
  type: z.literal('show'),
  tag,
  title: z.string().check(z.maxLength(PUSH_TITLE_MAX)),
  body: z.string().check(z.maxLength(PUSH_BODY_MAX)),
  /** Auto-resolution deadline; the worker words it in the phone's own locale and time zone. */
  deadlineAt: z.optional(IsoTimeSchema),
  /** When the interaction was asked (orders notifications). */
  timestamp: IsoTimeSchema,
  data: NotificationDataSchema,
});
export type PushShowPayload = z.infer<typeof PushShowPayloadSchema>;

/** Closes notifications by tag (a requestId, or the summary tag) once they are answered anywhere. */
export const PushClosePayloadSchema = z.strictObject({
  type: z.literal('close'),
  tags: z.array(tag).check(z.minLength(1), z.maxLength(50)),
});
export type PushClosePayload = z.infer<typeof PushClosePayloadSchema>;

/**
 * What `POST /api/respond` answers (R14.10): the very ack the socket's `respond` gives, and whether an
 * interaction the agent stopped waiting for was answered in its terminal, so the receipt says so as the card does.
 */
export const DeviceRespondReplySchema = z.strictObject({
  ack: RespondAckSchema,
  answeredInTerminal: z.optional(z.boolean()),
});
export type DeviceRespondReply = z.infer<typeof DeviceRespondReplySchema>;

/** The decrypted body of every Web Push the host sends. */
export const PushPayloadSchema = z.discriminatedUnion('type', [PushShowPayloadSchema, PushClosePayloadSchema]);
export type PushPayload = z.infer<typeof PushPayloadSchema>;
