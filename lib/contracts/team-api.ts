import * as z from 'zod/mini';
import { IdSchema, InteractionIdSchema, IsoTimeSchema } from './interaction';
import { GroupNameSchema, GroupRecordSchema, PersonRefSchema } from './people';

// What a team hub's app asks about its people and groups (R21.18–R21.24), over HTTP with the device's credential
// (`Authorization: Bearer`), apart from the socket's messages like `/api/me`: people stay off every phone's stream.

/** `GET`: the team as this device's person may see it (TeamView). */
export const TEAM_API_PATH = '/api/team';
/** `POST {role}` to `/api/team/people/<id>/role`; `POST` to `/api/team/people/<id>/remove`. Owner and admins only. */
export const TEAM_PEOPLE_API_PATH = '/api/team/people';
/** `POST GroupInput` creates; `POST GroupInput` to `/api/team/groups/<id>` changes; `.../<id>/remove` removes. */
export const TEAM_GROUPS_API_PATH = '/api/team/groups';
/** `POST HandOverCommand`: an owner or admin gives a pending question to someone else (R21.23). */
export const TEAM_HAND_OVER_API_PATH = '/api/team/hand-over';

/** A person as Settings → People lists them. */
export const TeamPersonSchema = z.strictObject({
  ...PersonRefSchema.shape,
  lastSignInAt: z.optional(IsoTimeSchema),
  removedAt: z.optional(IsoTimeSchema),
  /** The groups they are in, by id. */
  groups: z.array(IdSchema),
});
export type TeamPerson = z.infer<typeof TeamPersonSchema>;

/**
 * `GET /api/team`: `canManage` when this device's person is the owner or an admin (or the device is the operator's,
 * paired with a pairing link); then `people` and `groups` are everyone. A member gets themselves and their groups.
 */
export const TeamViewSchema = z.strictObject({
  me: z.nullable(PersonRefSchema),
  canManage: z.boolean(),
  people: z.array(TeamPersonSchema),
  groups: z.array(GroupRecordSchema),
});
export type TeamView = z.infer<typeof TeamViewSchema>;

export const RoleChangeCommandSchema = z.strictObject({ role: z.enum(['admin', 'member']) });
export type RoleChangeCommand = z.infer<typeof RoleChangeCommandSchema>;

/** A group as it is created or changed: `members` by person id. */
export const GroupInputSchema = z.strictObject({
  name: GroupNameSchema,
  members: z.array(IdSchema).check(z.maxLength(1000)),
  providerGroup: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(320))),
});
export type GroupInput = z.infer<typeof GroupInputSchema>;

export const HandOverCommandSchema = z.strictObject({ requestId: InteractionIdSchema, toPersonId: IdSchema });
export type HandOverCommand = z.infer<typeof HandOverCommandSchema>;

/**
 * `POST /api/device/join-codes` body (optional): `{groupId}` mints a code for a group's shared machine (R21.18),
 * `{personId}` one for another person's machine (an owner's or admin's device, R21.19); neither: the device's own
 * person's.
 */
export const DeviceJoinCodeRequestSchema = z.strictObject({
  groupId: z.optional(IdSchema),
  personId: z.optional(IdSchema),
});
export type DeviceJoinCodeRequest = z.infer<typeof DeviceJoinCodeRequestSchema>;
