import * as z from 'zod/mini';
import { DeviceInfoSchema, NewDeviceNameSchema, NewDevicePlatformSchema } from './devices';
import { IdSchema, IsoTimeSchema } from './interaction';
import { PAIRING_CODE_MAX } from './limits';

// The HTTP side of pairing (R16.2, R16.8): `POST /api/pair` for the app, `/api/admin/…` for the CLI.
// Apart from the socket messages, so the app's first screen does not carry them.

const name = NewDeviceNameSchema;
const platform = NewDevicePlatformSchema;

/** `aw_d_<16 hex id>_<43 base64url>`: the shape of a device credential, checked before any secret is. */
export const DeviceCredentialSchema = z
  .string()
  .check(
    z.regex(/^aw_d_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/, { message: 'Must be a device credential (aw_d_<id>_<secret>)' }),
  );

/**
 * Pairing again (R16.9): the credential this app still holds for this same host. If the host
 * still honours it, the new device takes that one's place: it is revoked as from Settings, and
 * with `keepName` (the person left the offered name alone) the new entry keeps its name.
 */
export const PairReplacesSchema = z.strictObject({
  credential: DeviceCredentialSchema,
  keepName: z.boolean(),
});
export type PairReplaces = z.infer<typeof PairReplacesSchema>;

/** `POST /api/pair`: a one-time code from a pairing link, exchanged for this device's credential. */
export const PairRequestSchema = z.strictObject({
  code: z.string().check(z.minLength(1), z.maxLength(PAIRING_CODE_MAX)),
  name,
  platform,
  replaces: z.optional(PairReplacesSchema),
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
  /** A join code (R17.1) that is used, expired, unknown or from before the hub restarted: one answer for all. */
  'join-code-invalid',
  'rate-limited',
  'invalid-request',
  'unauthorized',
  'forbidden',
  'not-found',
  'conflict',
  'origin-not-allowed',
  /** The host's disk refused the write (R10.4): nothing changed, the code still works; try again. */
  'storage-unavailable',
  /** The request named a host this server does not answer for (DNS rebinding, R12.4): status 421. */
  'misdirected',
  'internal',
]);
export type ApiErrorCode = z.infer<typeof ApiErrorCodeSchema>;

export const ApiErrorSchema = z.strictObject({
  error: z.strictObject({ code: ApiErrorCodeSchema, message: z.string() }),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

/* ------------------------------------------------------------- admin API (R16.8) */

export const ADMIN_API_PREFIX = '/api/admin';

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
