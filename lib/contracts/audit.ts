import * as z from 'zod/mini';
import { IdSchema, InteractionIdSchema, IsoTimeSchema } from './interaction';
import { TeamNameSchema } from './team-names';

// A team hub's audit record (R21.21): who did what, from which device and address, and when; refused attempts too.
// Entries are events of the log itself (`audit.recorded`), so they are kept exactly as long as the log is, reach
// every replica, and are never sent to a phone's stream.

export const AuditActionSchema = z.enum([
  /** An answer (accept), a skip (cancel) or a decline of a question. */
  'answer',
  'skip',
  'decline',
  'hand-over',
  'sign-in',
  'pairing',
  'device-revoked',
  'machine-joined',
  'machine-revoked',
  'join-code-minted',
  'role-changed',
  'person-removed',
  'group-saved',
  'group-removed',
]);
export type AuditAction = z.infer<typeof AuditActionSchema>;

/** How the actor reached the hub. */
export const AuditViaSchema = z.enum(['app', 'notification', 'api', 'cli', 'sign-in', 'join']);
export type AuditVia = z.infer<typeof AuditViaSchema>;

/** Who did it: a person and their device, or the hub's operator (no person: the admin token, a pairing link). */
export const AuditActorSchema = z.strictObject({
  personId: z.optional(IdSchema),
  personName: z.optional(TeamNameSchema),
  deviceId: z.optional(IdSchema),
  deviceName: z.optional(TeamNameSchema),
  /** The client's address as the hub saw it (behind `--trusted-proxy`, the forwarded one). */
  address: z.optional(z.string().check(z.maxLength(64))),
  via: AuditViaSchema,
});
export type AuditActor = z.infer<typeof AuditActorSchema>;

/** What it was done to. */
export const AuditTargetSchema = z.strictObject({
  kind: z.enum(['question', 'person', 'device', 'machine', 'group']),
  id: z.union([IdSchema, InteractionIdSchema]),
  name: z.optional(TeamNameSchema),
});
export type AuditTarget = z.infer<typeof AuditTargetSchema>;

export const AuditEntrySchema = z.strictObject({
  action: AuditActionSchema,
  /** `refused`: the hub said no (another person's question, a member revoking someone else's device …). */
  outcome: z.enum(['done', 'refused']),
  actor: AuditActorSchema,
  target: z.optional(AuditTargetSchema),
  /** What changed or why it was refused ("role admin", "not this person's question"). */
  detail: z.optional(z.string().check(z.maxLength(500))),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditRecordedEventSchema = z.strictObject({
  seq: z.int().check(z.positive()),
  at: IsoTimeSchema,
  type: z.literal('audit.recorded'),
  entry: AuditEntrySchema,
});

/** One line of `askaway audit` (JSON lines) and of `GET /api/team/audit`: the entry with its seq and time. */
export const AuditLineSchema = z.strictObject({
  seq: z.int().check(z.positive()),
  at: IsoTimeSchema,
  ...AuditEntrySchema.shape,
});
export type AuditLine = z.infer<typeof AuditLineSchema>;

/**
 * `GET /api/team/audit?before=<seq>&limit=<n>` with an owner's or admin's device credential: newest first, at most
 * `limit` (default 50, at most 200); `nextBefore` pages on. `GET /api/admin/audit?since=<iso>` (the admin token,
 * `askaway audit --since`) answers oldest first.
 */
export const TEAM_AUDIT_API_PATH = '/api/team/audit';
export const AuditPageSchema = z.strictObject({
  entries: z.array(AuditLineSchema),
  nextBefore: z.optional(z.int().check(z.positive())),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;
