import * as z from 'zod/mini';
import { DeviceInfoSchema, DeviceRecordSchema } from './devices';
import { MachineInfoSchema, type MachineList } from './machines';
import { HostEventSchema } from './events';
import {
  AutoResolutionStateSchema,
  IdSchema,
  InteractionIdSchema,
  InteractionResolutionSchema,
  InteractionResponseSchema,
  InteractionViewSchema,
  IsoTimeSchema,
  TerminalAnswerSchema,
} from './interaction';
import { DECLINE_MESSAGE_MAX } from './limits';
import { PreferencesSchema } from './preferences';

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
  /** A device credential whose device was revoked (R16.5): pair again. */
  'device-revoked',
  /** A device command about a device that is not (or no longer) paired. */
  'unknown-device',
  /** A machine credential whose machine was revoked (R17.2): join again with a new code. */
  'machine-revoked',
  /** A machine command about a machine that is not (or no longer) joined. */
  'unknown-machine',
  /** The host's disk refused the write (full, failing): nothing changed; the same message may be sent again later. */
  'storage-unavailable',
  /** The machine already has as many interactions waiting as the host allows (`--max-pending`, R12.3). */
  'too-many-pending',
  /** On a team hub, a member's device asked for what only the owner and admins may do (R21.71). */
  'forbidden',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const WireErrorSchema = z.strictObject({ code: ErrorCodeSchema, message: z.string() });
export type WireError = z.infer<typeof WireErrorSchema>;

const failure = z.strictObject({ ok: z.literal(false), error: WireErrorSchema });
/** Every ack is `{ok: true, ...}` or `{ok: false, error}`. */
export type Failure = z.infer<typeof failure>;

const token = z.string().check(z.minLength(1), z.maxLength(512));
const label = z.optional(z.string().check(z.maxLength(200)));

/* ------------------------------------------------------------------ runtime namespace */

export const RuntimeAuthSchema = z.strictObject({
  /** The agent token (the hub's own agents) or a joined machine's credential `aw_m_…` (R17.2). */
  token,
  protocolVersion: z.int(),
  runtimeId: IdSchema,
  label,
});
export type RuntimeAuth = z.infer<typeof RuntimeAuthSchema>;

export const AnnounceAckSchema = z.union([
  z.strictObject({ ok: z.literal(true), status: z.literal('pending'), autoResolution: AutoResolutionStateSchema }),
  z.strictObject({ ok: z.literal(true), status: z.literal('resolved'), resolution: InteractionResolutionSchema }),
  z.strictObject({ ok: z.literal(true), status: z.literal('withdrawn') }),
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
export const AnnounceBatchSchema = z.strictObject({
  entries: z
    .array(z.strictObject({ requestId: IdSchema, protocolRequestId: IdSchema }))
    .check(z.minLength(1), z.maxLength(MAX_ANNOUNCE_BATCH)),
});
export type AnnounceBatch = z.infer<typeof AnnounceBatchSchema>;

/**
 * Every entry not listed is `pending` (its protocolRequestId and route are now
 * current). `unknown`: the host has no such interaction, send the full announce.
 */
export const AnnounceBatchAckSchema = z.union([
  z.strictObject({
    ok: z.literal(true),
    resolved: z.array(z.strictObject({ requestId: IdSchema, resolution: InteractionResolutionSchema })),
    withdrawn: z.array(IdSchema),
    unknown: z.array(IdSchema),
  }),
  failure,
]);
export type AnnounceBatchAck = z.infer<typeof AnnounceBatchAckSchema>;

export const WithdrawCommandSchema = z.strictObject({
  requestId: IdSchema,
  reason: z.optional(z.string().check(z.maxLength(DECLINE_MESSAGE_MAX))),
  /** Withdrawn because the agent's terminal answered first, and what it chose when known (R18.6). */
  terminalAnswer: z.optional(TerminalAnswerSchema),
  /**
   * The agent refused the answer it was given, because its terminal had answered first (OpenCode's 404): the
   * resolved interaction becomes withdrawn, so the phone's receipt and History say the terminal's answer won.
   */
  afterAnswer: z.optional(z.literal(true)),
});
export type WithdrawCommand = z.infer<typeof WithdrawCommandSchema>;

export const ResolutionAckCommandSchema = z.strictObject({ requestId: IdSchema });
export type ResolutionAckCommand = z.infer<typeof ResolutionAckCommandSchema>;

export const SimpleAckSchema = z.union([z.strictObject({ ok: z.literal(true) }), failure]);
export type SimpleAck = z.infer<typeof SimpleAckSchema>;

/** Host → runtime: an interaction was resolved; the runtime answers with `resolution:ack`. */
export const ResolvedNoticeSchema = z.strictObject({
  requestId: IdSchema,
  protocolRequestId: IdSchema,
  resolution: InteractionResolutionSchema,
});
export type ResolvedNotice = z.infer<typeof ResolvedNoticeSchema>;

/** Host → runtime: the `onAutoResolutionUpdated` callback (R6.2). */
export const AutoResolutionNoticeSchema = z.strictObject({
  requestId: IdSchema,
  autoResolution: AutoResolutionStateSchema,
});
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

export const RemoteAuthSchema = z.strictObject({
  /** This device's credential from pairing (R16.1); the device's id and name come from it. */
  credential: token,
  protocolVersion: z.int(),
  /**
   * Present when the remote holds state up to `lastSeq` of the log `logId` and wants only what it
   * missed (R9.2). Another log's seq (a reset data dir) gets a snapshot instead (R10.6).
   */
  resume: z.optional(z.strictObject({ logId: IdSchema, lastSeq: z.int().check(z.minimum(0)) })),
});
export type RemoteAuth = z.infer<typeof RemoteAuthSchema>;

/** Everything a remote needs to render after a (re)connect (R9.2). */
export const SnapshotSchema = z.strictObject({
  protocolVersion: z.int(),
  hostVersion: z.string(),
  serverTime: IsoTimeSchema,
  /** Which log `seq` counts in: random per log, so a reset data dir is told apart (R10.6). */
  logId: IdSchema,
  seq: z.int().check(z.minimum(0)),
  /** The host's machine name, as the pairing response gave it. */
  hostName: z.string().check(z.maxLength(255)),
  /** The first page of the pending interactions, oldest first (R12.7): all of them unless `pendingCursor` is set. */
  pending: z.array(InteractionViewSchema),
  /** How many interactions are waiting in all, on this page or beyond it. */
  pendingTotal: z.int().check(z.minimum(0)),
  /** Set when more wait than this page holds: `pending:more {after: pendingCursor}` loads the next page. */
  pendingCursor: z.optional(z.int().check(z.minimum(0))),
  history: z.array(InteractionViewSchema),
  preferences: PreferencesSchema,
  /** Paired devices that are not revoked (R16.4). */
  devices: z.array(DeviceRecordSchema),
  /** The hub first, then joined machines not revoked, with their agents connected now (R17.5). */
  machines: z.array(MachineInfoSchema),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** Events a remote missed, then live events (subscribe first, replay, drop duplicates). */
export const EventBatchSchema = z.strictObject({
  events: z.array(HostEventSchema),
  serverTime: IsoTimeSchema,
  /** How many interactions wait in all now, loaded on this remote or not (R12.7). */
  pendingTotal: z.optional(z.int().check(z.minimum(0))),
});
export type EventBatch = z.infer<typeof EventBatchSchema>;

/** Remote → host: the next page of pending interactions, after a snapshot's (or the last page's) cursor (R12.7). */
export const PendingMoreCommandSchema = z.strictObject({ after: z.int().check(z.minimum(0)) });
export type PendingMoreCommand = z.infer<typeof PendingMoreCommandSchema>;

export const PendingMoreAckSchema = z.union([
  z.strictObject({
    ok: z.literal(true),
    pending: z.array(InteractionViewSchema),
    pendingTotal: z.int().check(z.minimum(0)),
    /** Set when still more wait beyond this page. */
    pendingCursor: z.optional(z.int().check(z.minimum(0))),
  }),
  failure,
]);
export type PendingMoreAck = z.infer<typeof PendingMoreAckSchema>;

export const RespondCommandSchema = z.strictObject({
  /** The host's id of the interaction (the view's `requestId`). */
  requestId: InteractionIdSchema,
  /** Client-generated idempotency key: repeating it is safe. */
  clientResponseId: IdSchema,
  response: InteractionResponseSchema,
});
export type RespondCommand = z.infer<typeof RespondCommandSchema>;

export const RespondAckSchema = z.union([
  z.strictObject({
    ok: z.literal(true),
    /** `accepted`: this response won. `already-resolved`: another one had (R10.3). */
    status: z.enum(['accepted', 'already-resolved']),
    resolution: InteractionResolutionSchema,
  }),
  failure,
]);
export type RespondAck = z.infer<typeof RespondAckSchema>;

export const PreferencesAckSchema = z.union([
  z.strictObject({ ok: z.literal(true), preferences: PreferencesSchema }),
  failure,
]);
export type PreferencesAck = z.infer<typeof PreferencesAckSchema>;

export const SnapshotAckSchema = z.union([z.strictObject({ ok: z.literal(true), snapshot: SnapshotSchema }), failure]);
export type SnapshotAck = z.infer<typeof SnapshotAckSchema>;

/** Every paired device with when it was last seen (R16.4). */
export const DevicesAckSchema = z.union([
  z.strictObject({ ok: z.literal(true), devices: z.array(DeviceInfoSchema) }),
  failure,
]);
export type DevicesAck = z.infer<typeof DevicesAckSchema>;

/** Every machine with its agents connected now (R17.5). */
export const MachinesAckSchema = z.union([
  z.strictObject({ ok: z.literal(true), machines: z.array(MachineInfoSchema) }),
  failure,
]);
export type MachinesAck = z.infer<typeof MachinesAckSchema>;

export interface RemoteClientToServerEvents {
  respond: (command: unknown, ack: (result: RespondAck) => void) => void;
  'preferences:update': (patch: unknown, ack: (result: PreferencesAck) => void) => void;
  'snapshot:get': (ack: (result: SnapshotAck) => void) => void;
  'pending:more': (command: unknown, ack: (result: PendingMoreAck) => void) => void;
  'devices:list': (ack: (result: DevicesAck) => void) => void;
  /** Revokes any paired device, this one included (R16.5). */
  'devices:revoke': (command: unknown, ack: (result: SimpleAck) => void) => void;
  /** Renames this device. */
  'device:rename': (command: unknown, ack: (result: SimpleAck) => void) => void;
  'machines:list': (ack: (result: MachinesAck) => void) => void;
  /** Revokes a joined machine (R17.2): `{machineId}`; the hub itself cannot be revoked. */
  'machines:revoke': (command: unknown, ack: (result: SimpleAck) => void) => void;
}
export interface RemoteServerToClientEvents {
  snapshot: (snapshot: Snapshot) => void;
  events: (batch: EventBatch) => void;
  /** The whole machine list, on connect (after the snapshot or replay) and on every change, coalesced (R17.5). */
  machines: (list: MachineList) => void;
}

/** The `data` of a refused connection (socket.io `connect_error`). */
export const ConnectErrorDataSchema = WireErrorSchema;
