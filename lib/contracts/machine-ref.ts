import * as z from 'zod/mini';
import { JOINED_MACHINE_ID_PATTERN, LOCAL_MACHINE_ID } from './machine-keys';
import { hasUnsafeCharacters } from './text-safety';

/** A machine's name: its host name by default, or what `askaway join --name` gave (R17.1). */
export const MACHINE_NAME_MAX = 64;

/** Printed in terminals and lists: no control characters (a name must not drive the terminal). */
const printable = z.regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, { message: 'Must not contain control characters' });
/** A machine's name as the log keeps it (older ones may hold what new names refuse). */
export const MachineNameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(MACHINE_NAME_MAX), printable);

/** For names given now: no zero-width or bidi characters, which hide or reorder what is shown (R12.8). */
export const visiblyPlain = z.refine<string>((text) => !hasUnsafeCharacters(text), {
  message: 'Must not contain zero-width or text-direction characters',
});
/** A name given now (`askaway join --name`, `askaway start --name`). */
export const NewMachineNameSchema = z
  .string()
  .check(z.trim(), z.minLength(1), z.maxLength(MACHINE_NAME_MAX), printable, visiblyPlain);

/** `local` (the hub itself) or a joined machine's 16 hex characters. */
export const MachineIdSchema = z.string().check(
  z.refine((id) => id === LOCAL_MACHINE_ID || JOINED_MACHINE_ID_PATTERN.test(id), {
    message: `Must be "${LOCAL_MACHINE_ID}" or 16 hex characters`,
  }),
);

/**
 * Which machine an interaction came from (R17.3): set by the host from the connection's credential,
 * never taken from what a runtime sends. The name is the machine's name when it asked.
 */
export const MachineRefSchema = z.strictObject({ id: MachineIdSchema, name: MachineNameSchema });
export type MachineRef = z.infer<typeof MachineRefSchema>;

/** A joined machine's id (never `local`): what `machine.*` events and the admin API name. */
export const JoinedMachineIdSchema = z
  .string()
  .check(z.regex(JOINED_MACHINE_ID_PATTERN, { message: 'Must be 16 hex characters' }));
