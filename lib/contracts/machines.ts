import * as z from 'zod/mini';
import { IdSchema, IsoTimeSchema } from './interaction';
import {
  JoinedMachineIdSchema,
  MachineIdSchema,
  MachineNameSchema,
  MachineRefSchema,
  NewMachineNameSchema,
} from './machine-ref';

export * from './machine-keys';
export * from './machine-ref';

// Machines joined to a hub (R17): their records in the log, the live list remotes and the CLI
// show, and the HTTP shapes of joining and of the admin API.

/** A joined machine as the log records it: no secret, nothing but what the lists show. */
export const MachineRecordSchema = z.strictObject({
  id: JoinedMachineIdSchema,
  name: MachineNameSchema,
  joinedAt: IsoTimeSchema,
  /** On a team hub, whose machine it is (R21.15); absent: the hub owner's. Never sent to a phone. */
  personId: z.optional(IdSchema),
  /** On a team hub, the group of a shared machine (R21.18): its questions go to the group's members. */
  groupId: z.optional(IdSchema),
  /** Set once the machine is revoked (R17.2); it is refused from then on. */
  revokedAt: z.optional(IsoTimeSchema),
});
export type MachineRecord = z.infer<typeof MachineRecordSchema>;

/**
 * A machine in a list (R17.5): the hub itself first (`kind: 'hub'`, id `local`, its agents use the
 * agent token), then every joined machine not revoked, in the order they joined. Not in the log:
 * built from the records plus what the host knows now about connections.
 */
export const MachineInfoSchema = z.strictObject({
  id: MachineIdSchema,
  name: MachineNameSchema,
  kind: z.enum(['hub', 'joined']),
  /** When it joined; absent for the hub. */
  joinedAt: z.optional(IsoTimeSchema),
  /**
   * Runtime connections open now (hook processes, `askaway mcp` servers, `askaway ask`, the demo).
   * 0: the machine's pending questions wait for it to come back (R17.6).
   */
  connectedAgents: z.int().check(z.minimum(0)),
  /** Last time an agent of it connected or disconnected (now, while any is connected); absent if never. */
  lastSeenAt: z.optional(IsoTimeSchema),
});
export type MachineInfo = z.infer<typeof MachineInfoSchema>;

/**
 * The machine list: the snapshot's `machines`, the remote's `machines` event (sent on connect and
 * whenever a machine joins, is revoked, or its agents come or go, coalesced), `machines:list`, and
 * `GET /api/admin/machines`.
 */
export const MachineListSchema = z.strictObject({ machines: z.array(MachineInfoSchema) });
export type MachineList = z.infer<typeof MachineListSchema>;

/** Remote → host `machines:revoke` (Settings → Machines → Revoke). */
export const MachineRevokeCommandSchema = z.strictObject({ machineId: JoinedMachineIdSchema });
export type MachineRevokeCommand = z.infer<typeof MachineRevokeCommandSchema>;

/* ------------------------------------------------------------------ joining (HTTP) */

export const JOIN_API_PATH = '/api/join';
/** Runtime credential in `Authorization: Bearer`: who this credential is on this host (`askaway status`). */
export const WHOAMI_API_PATH = '/api/agent/whoami';
/** Runtime credential in `Authorization: Bearer`: whether the person is away (R19.50), `{away}`. */
export const AWAY_API_PATH = '/api/agent/away';

/** `GET /api/agent/away`, `GET /api/admin/away`, `POST /api/admin/away/on|off`: whether the person is away. */
export const AwayStateSchema = z.strictObject({ away: z.boolean() });
export type AwayState = z.infer<typeof AwayStateSchema>;

/** `POST /api/join`: a one-time join code from `askaway invite`, exchanged for this machine's credential. */
export const JoinRequestSchema = z.strictObject({
  code: z.string().check(z.minLength(1), z.maxLength(64)),
  name: NewMachineNameSchema,
});
export type JoinRequest = z.infer<typeof JoinRequestSchema>;

export const JoinResponseSchema = z.strictObject({
  machine: MachineRefSchema,
  /** `aw_m_<id>_<secret>`: opens the runtime side of this hub, and nothing else (R17.2). */
  credential: z.string().check(z.minLength(1), z.maxLength(512)),
  /** The hub's own name, for messages on the machine ("removed from <hub>"). */
  hubName: z.string().check(z.maxLength(255)),
});
export type JoinResponse = z.infer<typeof JoinResponseSchema>;

/** `GET /api/agent/whoami` with a runtime credential. */
export const WhoAmIResponseSchema = z.strictObject({
  hubName: z.string().check(z.maxLength(255)),
  hubVersion: z.string().check(z.maxLength(80)),
  machine: MachineRefSchema,
});
export type WhoAmIResponse = z.infer<typeof WhoAmIResponseSchema>;

/* ------------------------------------------------------------- admin API (R17.1) */

/**
 * `POST /api/device/join-codes` with a device credential (`Authorization: Bearer`): a join code minted by a
 * person's device, so the machine that joins with it is that person's (R21.15). Answers a JoinCodeResponse.
 */
export const DEVICE_JOIN_CODES_API_PATH = '/api/device/join-codes';

/** `POST /api/admin/join-codes`: a fresh one-time join code and the command to run on the other machine. */
export const JoinCodeResponseSchema = z.strictObject({
  code: z.string(),
  /** The address the hub believes other machines reach it at (`--public-url`, a LAN address, else its own). */
  hubUrl: z.string(),
  /** `askaway join <hubUrl> <code>`. */
  command: z.string(),
  expiresAt: IsoTimeSchema,
});
export type JoinCodeResponse = z.infer<typeof JoinCodeResponseSchema>;

/** `POST /api/admin/machines/<id>/revoke`. */
export const MachineRevokeResponseSchema = z.strictObject({ machine: MachineInfoSchema });
export type MachineRevokeResponse = z.infer<typeof MachineRevokeResponseSchema>;

/* ------------------------------------------------- the joined machine's side (R17.1) */

/** Where `askaway join` keeps the hub's address and this machine's credential, in the machine's data dir (0600). */
export const JOINED_HUB_FILE = 'hub.json';

/** `<dataDir>/hub.json` on a joined machine. */
export const JoinedHubFileSchema = z.strictObject({
  /** The hub's address as given to `askaway join`. */
  url: z.string().check(z.minLength(1), z.maxLength(2_000)),
  /** `aw_m_<id>_<secret>`. */
  credential: z.string().check(z.minLength(1), z.maxLength(512)),
  machine: MachineRefSchema,
  hubName: z.string().check(z.maxLength(255)),
  joinedAt: IsoTimeSchema,
});
export type JoinedHubFile = z.infer<typeof JoinedHubFileSchema>;
