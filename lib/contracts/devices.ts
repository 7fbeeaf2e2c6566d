import * as z from 'zod/mini';
import { IdSchema, IsoTimeSchema } from './interaction';

/** A device's name as the person gave it at pairing (or later in Settings). */
export const DEVICE_NAME_MAX = 60;
/** What the app says it runs on, e.g. "iPhone · Safari". */
export const DEVICE_PLATFORM_MAX = 80;
/** Longest pairing code the host reads; real codes are 23 characters (4 groups of 5, with dashes). */
export const PAIRING_CODE_MAX = 64;

const name = z.string().check(z.trim(), z.minLength(1), z.maxLength(DEVICE_NAME_MAX));
const platform = z.string().check(z.trim(), z.maxLength(DEVICE_PLATFORM_MAX));

/** A paired device as the log records it (R16.4): no secret, nothing but what Settings shows. */
export const DeviceRecordSchema = z.strictObject({
  id: IdSchema,
  name,
  platform,
  pairedAt: IsoTimeSchema,
  /** Set once the device is revoked (R16.5); it is refused from then on. */
  revokedAt: z.optional(IsoTimeSchema),
});
export type DeviceRecord = z.infer<typeof DeviceRecordSchema>;

/** A device in a list: its record plus when the host last heard from it. */
export const DeviceInfoSchema = z.strictObject({
  id: IdSchema,
  name,
  platform,
  pairedAt: IsoTimeSchema,
  /** Connected right now (any of its connections). */
  online: z.boolean(),
  /** The last connect or disconnect; absent when it never connected. */
  lastSeenAt: z.optional(IsoTimeSchema),
});
export type DeviceInfo = z.infer<typeof DeviceInfoSchema>;

/* ------------------------------------------------------------------ pairing (R16.2) */

/** `POST /api/pair`: a one-time code from a pairing link, exchanged for this device's credential. */
export const PairRequestSchema = z.strictObject({
  code: z.string().check(z.minLength(1), z.maxLength(PAIRING_CODE_MAX)),
  name,
  platform,
});
export type PairRequest = z.infer<typeof PairRequestSchema>;

export const PairResponseSchema = z.strictObject({
  deviceId: IdSchema,
  /** `aw_d_<deviceId>_<secret>`: opens the remote side of this host, and nothing else (R16.1). */
  credential: z.string().check(z.minLength(1), z.maxLength(512)),
  /** The host's machine name, for "This device was removed from <host>". */
  hostName: z.string().check(z.maxLength(255)),
});
export type PairResponse = z.infer<typeof PairResponseSchema>;

/**
 * Why an HTTP API call was refused. `pairing-code-invalid`: used, expired, unknown, or made
 * before the host restarted — one answer for all, so a guess learns nothing (R16.3).
 */
export const ApiErrorCodeSchema = z.enum([
  'pairing-code-invalid',
  'rate-limited',
  'invalid-request',
  'unauthorized',
  'forbidden',
  'not-found',
  'conflict',
  'origin-not-allowed',
]);
export type ApiErrorCode = z.infer<typeof ApiErrorCodeSchema>;

export const ApiErrorSchema = z.strictObject({
  error: z.strictObject({ code: ApiErrorCodeSchema, message: z.string() }),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

/* ------------------------------------------------------------- admin API (R16.8) */

export const ADMIN_API_PREFIX = '/api/admin';
export const PAIR_API_PATH = '/api/pair';

/** `POST /api/admin/pairing-codes`: a fresh one-time code and the link that carries it. */
export const PairingCodeResponseSchema = z.strictObject({
  code: z.string(),
  link: z.string(),
  expiresAt: IsoTimeSchema,
});
export type PairingCodeResponse = z.infer<typeof PairingCodeResponseSchema>;

/** `GET /api/admin/devices`, and the remote's `devices:list`. */
export const DeviceListSchema = z.strictObject({ devices: z.array(DeviceInfoSchema) });
export type DeviceList = z.infer<typeof DeviceListSchema>;

/** `POST /api/admin/devices/<id>/revoke`. */
export const RevokeResponseSchema = z.strictObject({ device: DeviceInfoSchema });
export type RevokeResponse = z.infer<typeof RevokeResponseSchema>;

/* --------------------------------------------------- remote commands (R16.4, R16.5) */

export const DeviceRevokeCommandSchema = z.strictObject({ deviceId: IdSchema });
export type DeviceRevokeCommand = z.infer<typeof DeviceRevokeCommandSchema>;

export const DeviceRenameCommandSchema = z.strictObject({ name });
export type DeviceRenameCommand = z.infer<typeof DeviceRenameCommandSchema>;
