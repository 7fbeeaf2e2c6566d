import * as z from 'zod/mini';
import { IdSchema, IsoTimeSchema } from './interaction';
import { DEVICE_NAME_MAX, DEVICE_PLATFORM_MAX } from './limits';
import { visiblyPlain } from './machine-ref';
import { PersonRefSchema } from './people';

/** Printed in the host's terminal and lists: no control characters (a name must not drive the terminal). */
const printable = z.regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, { message: 'Must not contain control characters' });
/** A device's name as the log keeps it (older ones may hold what new names refuse). */
export const DeviceNameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(DEVICE_NAME_MAX), printable);
export const DevicePlatformSchema = z.string().check(z.trim(), z.maxLength(DEVICE_PLATFORM_MAX), printable);
/**
 * A name given now (pairing, renaming): also no zero-width or bidi characters, which would hide part
 * of it or reorder what is shown around it, so one device could pass for another (R12.8).
 */
export const NewDeviceNameSchema = z
  .string()
  .check(z.trim(), z.minLength(1), z.maxLength(DEVICE_NAME_MAX), printable, visiblyPlain);
export const NewDevicePlatformSchema = z
  .string()
  .check(z.trim(), z.maxLength(DEVICE_PLATFORM_MAX), printable, visiblyPlain);
const name = DeviceNameSchema;
const platform = DevicePlatformSchema;

/** A paired device as the log records it (R16.4): no secret, nothing but what Settings shows. */
export const DeviceRecordSchema = z.strictObject({
  id: IdSchema,
  name,
  platform,
  pairedAt: IsoTimeSchema,
  /** On a team hub, the person it belongs to (R21.12). */
  personId: z.optional(IdSchema),
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
  /** On a team hub, the person it belongs to (R21.12). */
  person: z.optional(PersonRefSchema),
});
export type DeviceInfo = z.infer<typeof DeviceInfoSchema>;

/* --------------------------------------------------- remote commands (R16.4, R16.5) */

export const DeviceRevokeCommandSchema = z.strictObject({ deviceId: IdSchema });
export type DeviceRevokeCommand = z.infer<typeof DeviceRevokeCommandSchema>;

export const DeviceRenameCommandSchema = z.strictObject({ name: NewDeviceNameSchema });
export type DeviceRenameCommand = z.infer<typeof DeviceRenameCommandSchema>;
