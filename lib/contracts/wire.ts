import { z } from 'zod';
import { HostEventSchema } from './events';
import {
  AutoResolutionStateSchema,
  DECLINE_MESSAGE_MAX,
  IdSchema,
  InteractionResolutionSchema,
  InteractionResponseSchema,
  InteractionViewSchema,
  IsoTimeSchema,
} from './interaction';
import { PreferencesSchema } from './preferences';

/** Bumped on any incompatible change of the messages below; checked at connect. */
export const PROTOCOL_VERSION = 1;

export const RUNTIME_NAMESPACE = '/runtime';
export const REMOTE_NAMESPACE = '/remote';

/** Largest socket.io message the host accepts, in bytes (R12.3). */
export const MAX_MESSAGE_BYTES = 256 * 1024;

export const ErrorCodeSchema = z.enum([
  'unauthorized',
  'protocol-mismatch',
  'invalid-message',
  'invalid-response',
  'unknown-interaction',
  'withdrawn',
  'rate-limited',
  'payload-too-large',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const WireErrorSchema = z.object({ code: ErrorCodeSchema, message: z.string() }).strict();
export type WireError = z.infer<typeof WireErrorSchema>;

const failure = z.object({ ok: z.literal(false), error: WireErrorSchema }).strict();
/** Every ack is `{ok: true, ...}` or `{ok: false, error}`. */
export type Failure = z.infer<typeof failure>;

/* ------------------------------------------------------------------ runtime namespace */

export const RuntimeAuthSchema = z
  .object({
    token: z.string().min(1).max(512),
    protocolVersion: z.number().int(),
    runtimeId: IdSchema,
    label: z.string().max(200).optional(),
  })
  .strict();
export type RuntimeAuth = z.infer<typeof RuntimeAuthSchema>;

export const AnnounceAckSchema = z.union([
  z.object({ ok: z.literal(true), status: z.literal('pending'), autoResolution: AutoResolutionStateSchema }).strict(),
  z.object({ ok: z.literal(true), status: z.literal('resolved'), resolution: InteractionResolutionSchema }).strict(),
  z.object({ ok: z.literal(true), status: z.literal('withdrawn') }).strict(),
  failure,
]);
export type AnnounceAck = z.infer<typeof AnnounceAckSchema>;

/** Most re-announces one `announce:batch` may carry; a runtime with more sends several. */
export const MAX_ANNOUNCE_BATCH = 5_000;

/**
 * Runtime → host: re-announces (R8.1) of requests the host already accepted as
 * pending on this connection, by id only, coalesced per connection. The full
 * request is sent again on every (re)connect and when the host answers `unknown`.
 */
export const AnnounceBatchSchema = z
  .object({
    entries: z
      .array(z.object({ requestId: IdSchema, protocolRequestId: IdSchema }).strict())
      .min(1)
      .max(MAX_ANNOUNCE_BATCH),
  })
  .strict();
export type AnnounceBatch = z.infer<typeof AnnounceBatchSchema>;

/**
 * Every entry not listed is `pending` (its protocolRequestId and route are now
 * current). `unknown`: the host has no such interaction, send the full announce.
 */
export const AnnounceBatchAckSchema = z.union([
  z
    .object({
      ok: z.literal(true),
      resolved: z.array(z.object({ requestId: IdSchema, resolution: InteractionResolutionSchema }).strict()),
      withdrawn: z.array(IdSchema),
      unknown: z.array(IdSchema),
    })
    .strict(),
  failure,
]);
export type AnnounceBatchAck = z.infer<typeof AnnounceBatchAckSchema>;

export const WithdrawCommandSchema = z
  .object({ requestId: IdSchema, reason: z.string().max(DECLINE_MESSAGE_MAX).optional() })
  .strict();
export type WithdrawCommand = z.infer<typeof WithdrawCommandSchema>;

export const ResolutionAckCommandSchema = z.object({ requestId: IdSchema }).strict();
export type ResolutionAckCommand = z.infer<typeof ResolutionAckCommandSchema>;

export const SimpleAckSchema = z.union([z.object({ ok: z.literal(true) }).strict(), failure]);
export type SimpleAck = z.infer<typeof SimpleAckSchema>;

/** Host → runtime: an interaction was resolved; the runtime answers with `resolution:ack`. */
export const ResolvedNoticeSchema = z
  .object({ requestId: IdSchema, protocolRequestId: IdSchema, resolution: InteractionResolutionSchema })
  .strict();
export type ResolvedNotice = z.infer<typeof ResolvedNoticeSchema>;

/** Host → runtime: the `onAutoResolutionUpdated` callback (R6.2). */
export const AutoResolutionNoticeSchema = z
  .object({ requestId: IdSchema, autoResolution: AutoResolutionStateSchema })
  .strict();
export type AutoResolutionNotice = z.infer<typeof AutoResolutionNoticeSchema>;

export interface RuntimeClientToServerEvents {
  announce: (request: unknown, ack: (result: AnnounceAck) => void) => void;
  'announce:batch': (batch: unknown, ack: (result: AnnounceBatchAck) => void) => void;
  withdraw: (command: unknown, ack: (result: SimpleAck) => void) => void;
  'resolution:ack': (command: unknown, ack: (result: SimpleAck) => void) => void;
}
export interface RuntimeServerToClientEvents {
  resolved: (notice: ResolvedNotice) => void;
  'auto-resolution': (notice: AutoResolutionNotice) => void;
}

/* ------------------------------------------------------------------- remote namespace */

export const RemoteAuthSchema = z
  .object({
    token: z.string().min(1).max(512),
    protocolVersion: z.number().int(),
    device: z.object({ id: IdSchema, label: z.string().max(200).optional() }).strict(),
    /** Present when the remote holds state up to this seq and wants only what it missed. */
    lastSeq: z.number().int().min(0).optional(),
  })
  .strict();
export type RemoteAuth = z.infer<typeof RemoteAuthSchema>;

/** Everything a remote needs to render after a (re)connect (R9.2). */
export const SnapshotSchema = z
  .object({
    protocolVersion: z.number().int(),
    hostVersion: z.string(),
    serverTime: IsoTimeSchema,
    seq: z.number().int().min(0),
    pending: z.array(InteractionViewSchema),
    history: z.array(InteractionViewSchema),
    preferences: PreferencesSchema,
  })
  .strict();
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** Events a remote missed, then live events (subscribe first, replay, drop duplicates). */
export const EventBatchSchema = z
  .object({ events: z.array(HostEventSchema), serverTime: IsoTimeSchema })
  .strict();
export type EventBatch = z.infer<typeof EventBatchSchema>;

export const RespondCommandSchema = z
  .object({
    requestId: IdSchema,
    /** Client-generated idempotency key: repeating it is safe. */
    clientResponseId: IdSchema,
    response: InteractionResponseSchema,
  })
  .strict();
export type RespondCommand = z.infer<typeof RespondCommandSchema>;

export const RespondAckSchema = z.union([
  z
    .object({
      ok: z.literal(true),
      /** `accepted`: this response won. `already-resolved`: another one had (R10.3). */
      status: z.enum(['accepted', 'already-resolved']),
      resolution: InteractionResolutionSchema,
    })
    .strict(),
  failure,
]);
export type RespondAck = z.infer<typeof RespondAckSchema>;

export const PreferencesAckSchema = z.union([
  z.object({ ok: z.literal(true), preferences: PreferencesSchema }).strict(),
  failure,
]);
export type PreferencesAck = z.infer<typeof PreferencesAckSchema>;

export const SnapshotAckSchema = z.union([z.object({ ok: z.literal(true), snapshot: SnapshotSchema }).strict(), failure]);
export type SnapshotAck = z.infer<typeof SnapshotAckSchema>;

export interface RemoteClientToServerEvents {
  respond: (command: unknown, ack: (result: RespondAck) => void) => void;
  'preferences:update': (patch: unknown, ack: (result: PreferencesAck) => void) => void;
  'snapshot:get': (ack: (result: SnapshotAck) => void) => void;
}
export interface RemoteServerToClientEvents {
  snapshot: (snapshot: Snapshot) => void;
  events: (batch: EventBatch) => void;
}

/** The `data` of a refused connection (socket.io `connect_error`). */
export const ConnectErrorDataSchema = WireErrorSchema;

