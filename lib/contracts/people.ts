import * as z from 'zod/mini';
import { IdSchema, IsoTimeSchema } from './interaction';

// People on a team hub (R21): who signed in at the hub's OpenID Connect provider. A person is known by the
// provider's issuer and subject (the one pair a provider promises never to reuse); email and name are what the
// provider said at the last sign-in, for showing, never for deciding who someone is.

/** Printed in lists and the terminal: no control characters. */
const printable = z.regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, { message: 'Must not contain control characters' });
const PERSON_TEXT_MAX = 320;
const shownText = z.string().check(z.maxLength(PERSON_TEXT_MAX), printable);

/** What a person may do on the hub (R21.9): the first to sign in (or the one named at start) is the owner. */
export const PersonRoleSchema = z.enum(['owner', 'admin', 'member']);
export type PersonRole = z.infer<typeof PersonRoleSchema>;

/** The provider's identifier and its `sub` claim: together the person, for good (OpenID Connect Core §5.7). */
export const PersonIdentitySchema = z.strictObject({
  issuer: z.string().check(z.minLength(1), z.maxLength(2048)),
  subject: z.string().check(z.minLength(1), z.maxLength(255)),
});

/** What the provider said about the person at the last sign-in; any of it may be missing. */
export const PersonProfileSchema = z.strictObject({
  email: z.optional(shownText),
  /** The provider vouched for the address (`email_verified`); only a verified one can name the owner. */
  emailVerified: z.optional(z.boolean()),
  name: z.optional(shownText),
  /** The `groups` claim, when the provider sends one. */
  groups: z.optional(z.array(shownText).check(z.maxLength(200))),
});
export type PersonProfile = z.infer<typeof PersonProfileSchema>;

/** A person as the log has it now. */
export const PersonRecordSchema = z.strictObject({
  id: IdSchema,
  ...PersonIdentitySchema.shape,
  ...PersonProfileSchema.shape,
  role: PersonRoleSchema,
  addedAt: IsoTimeSchema,
  lastSignInAt: z.optional(IsoTimeSchema),
  /** Set once the person is removed from the hub (R21.20): their devices and machines are revoked, sign-in refused. */
  removedAt: z.optional(IsoTimeSchema),
});
export type PersonRecord = z.infer<typeof PersonRecordSchema>;

/** Who a device belongs to, as lists show it. */
export const PersonRefSchema = z.strictObject({
  id: IdSchema,
  name: z.optional(shownText),
  email: z.optional(shownText),
  role: PersonRoleSchema,
});
export type PersonRef = z.infer<typeof PersonRefSchema>;

/** A person's shown name: the provider's name, else the email, else the subject. */
export function personLabel(person: { name?: string; email?: string; subject?: string; id: string }): string {
  return person.name || person.email || person.subject || person.id;
}

const eventBase = { seq: z.int().check(z.positive()), at: IsoTimeSchema };

/** Someone the hub did not know signed in (R21.8): from now on this issuer and subject are this person. */
export const PersonAddedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('person.added'),
  person: z.strictObject({ id: IdSchema, ...PersonIdentitySchema.shape, role: PersonRoleSchema }),
});

/**
 * A person signed in at the provider (R21.10). `pairing`: the SHA-256 (hex) of the one-time pairing code the hub
 * minted for the browser they signed in with; the device that redeems that code belongs to them.
 */
export const PersonSignedInEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('person.signed-in'),
  personId: IdSchema,
  profile: PersonProfileSchema,
  pairing: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
});

/**
 * A person's device minted a join code (R21.15): the machine that joins with it belongs to them. `joinCode`: the
 * code's SHA-256 (hex), never the code; `byDeviceId`: the device that asked for it.
 */
export const PersonJoinCodeMintedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('person.join-code-minted'),
  personId: IdSchema,
  /** The person's device that asked for it; none when the hub's owner invited the machine for them (R21.39). */
  byDeviceId: z.optional(IdSchema),
  joinCode: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
});

/**
 * A person removed from the hub (R21.20): from this event on their devices see nothing and their sign-in is refused;
 * the revocations of their devices and machines follow it in the log.
 */
export const PersonRemovedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('person.removed'),
  personId: IdSchema,
});

/** An owner or admin changed someone's role (R21.19); the owner's own role never changes this way. */
export const PersonRoleChangedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('person.role-changed'),
  personId: IdSchema,
  role: z.enum(['admin', 'member']),
  /** Who changed it; absent when the hub's operator did (`askaway people role`). */
  byPersonId: z.optional(IdSchema),
});

/** A group's shown name: what a card says a shared machine's question is for ("CI runners"). */
export const GroupNameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(80), printable);

/**
 * A group of people (R21.18): a shared machine (a CI runner, a build box) belongs to one, and its questions go to
 * every member. Members are the people listed, and everyone whose provider `groups` claim at their last sign-in
 * holds `providerGroup`.
 */
export const GroupRecordSchema = z.strictObject({
  id: IdSchema,
  name: GroupNameSchema,
  members: z.array(IdSchema).check(z.maxLength(1000)),
  providerGroup: z.optional(shownText),
});
export type GroupRecord = z.infer<typeof GroupRecordSchema>;

/** A group created or changed (R21.18): the whole group as it now is. */
export const GroupSavedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('group.saved'),
  group: GroupRecordSchema,
  byPersonId: z.optional(IdSchema),
});

/** A group removed (R21.18): its machines' questions go to the owner and admins only from then on. */
export const GroupRemovedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('group.removed'),
  groupId: IdSchema,
  byPersonId: z.optional(IdSchema),
});

/** A join code for a group's shared machine (R21.18): the machine that joins with it is the group's. */
export const GroupJoinCodeMintedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('group.join-code-minted'),
  groupId: IdSchema,
  byDeviceId: z.optional(IdSchema),
  joinCode: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
});

/** `GET /api/admin/people` (`askaway people`): everyone who signed in, the removed too. */
export const PeopleListSchema = z.strictObject({ people: z.array(PersonRecordSchema) });
export type PeopleList = z.infer<typeof PeopleListSchema>;

/** `POST /api/admin/people/<id>/revoke`: who was removed, and how many devices and machines were revoked with them. */
export const PersonRevokeResponseSchema = z.strictObject({
  person: PersonRecordSchema,
  devices: z.int().check(z.minimum(0)),
  machines: z.int().check(z.minimum(0)),
});
export type PersonRevokeResponse = z.infer<typeof PersonRevokeResponseSchema>;
