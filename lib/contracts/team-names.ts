import * as z from 'zod/mini';
import { ID_MAX } from './limits';

// Who a team hub's question is for, and who answered or handed it over (R21.22, R21.23), named as they were when
// it happened. A leaf module: the interaction's schemas carry these, and people.ts builds on them.

/** Printed in lists and the terminal: no control characters. */
const printable = z.regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, { message: 'Must not contain control characters' });
export const TEAM_NAME_MAX = 320;
/** A person's or group's shown name. */
export const TeamNameSchema = z.string().check(z.minLength(1), z.maxLength(TEAM_NAME_MAX), printable);
const TeamIdSchema = z.string().check(z.minLength(1), z.maxLength(ID_MAX));

/** A person as a card names them: their id on the hub and their shown name at the time. */
export const PersonNameRefSchema = z.strictObject({ id: TeamIdSchema, name: TeamNameSchema });
export type PersonNameRef = z.infer<typeof PersonNameRefSchema>;

/**
 * Whose a question is (R21.15, R21.18): the person or the group its machine belongs to, set by the hub from the
 * machine's record when the question is first asked, never from anything the agent sent.
 */
export const QuestionOwnerSchema = z.strictObject({
  kind: z.enum(['person', 'group']),
  id: TeamIdSchema,
  name: TeamNameSchema,
});
export type QuestionOwner = z.infer<typeof QuestionOwnerSchema>;

/** An admin gave a question to someone else (R21.23): the card says "Handed to you by Ana". */
export const HandOverSchema = z.strictObject({
  to: PersonNameRefSchema,
  /** The admin who handed it over; absent when the hub's operator did (a device paired with a pairing link). */
  by: z.optional(PersonNameRefSchema),
  at: z.string().check(z.iso.datetime({ offset: true })),
});
export type HandOver = z.infer<typeof HandOverSchema>;
