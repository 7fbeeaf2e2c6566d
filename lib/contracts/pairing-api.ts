import * as z from 'zod/mini';
import { DeviceInfoSchema, DeviceNameSchema, DevicePlatformSchema } from './devices';
import { IdSchema, IsoTimeSchema } from './interaction';
import { PAIRING_CODE_MAX } from './limits';

// The HTTP side of pairing (R16.2, R16.8): `POST /api/pair` for the app, `/api/admin/…` for the CLI.
// Apart from the socket messages, so the app's first screen does not carry them.

const name = DeviceNameSchema;
const platform = DevicePlatformSchema;

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
  /** A join code (R17.1) that is used, expired, unknown or from before the hub restarted: one answer for all. */
  'join-code-invalid',
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
