import * as z from 'zod/mini';
import { AgentRefSchema } from './agent';
import { AuditRecordedEventSchema } from './audit';
import {
  AutoResolutionStateSchema,
  IdSchema,
  InteractionContextSchema,
  InteractionIdSchema,
  InteractionOriginSchema,
  InteractionResolutionSchema,
  IsoTimeSchema,
  TerminalAnswerSchema,
  withPayload,
} from './interaction';
import { DeviceRecordSchema } from './devices';
import { DECLINE_MESSAGE_MAX } from './limits';
import { JoinedMachineIdSchema, MachineNameSchema, MachineRefSchema } from './machine-ref';
import {
  PersonAddedEventSchema,
  PersonJoinCodeMintedEventSchema,
  PersonRemovedEventSchema,
  PersonRoleChangedEventSchema,
  PersonSignedInEventSchema,
  GroupJoinCodeMintedEventSchema,
  GroupRemovedEventSchema,
  GroupSavedEventSchema,
} from './people';
import { PersonNameRefSchema, QuestionOwnerSchema } from './team-names';
import { PreferencesSchema } from './preferences';

/** Every stored event has a seq and an absolute time. */
const eventBase = { seq: z.int().check(z.positive()), at: IsoTimeSchema };

/** The durable record of an interaction (no protocolRequestId: that is in-memory routing). */
export const InteractionRecordSchema = withPayload({
  /** The host's id (R17.4): `interactionKey(machine.id, the runtime's request id)`. */
  requestId: InteractionIdSchema,
  /** Set by the host from the asking connection's credential (R17.3); logs from before machines move to `local`. */
  machine: MachineRefSchema,
  sessionId: IdSchema,
  /** Which agent asked (R18.1); events from before agents have none (`agentOf` infers it). */
  agent: z.optional(AgentRefSchema),
  origin: z.optional(InteractionOriginSchema),
  toolName: z.string().check(z.maxLength(200)),
  toolUseId: z.optional(IdSchema),
  context: z.optional(InteractionContextSchema),
  createdAt: IsoTimeSchema,
  /** On a team hub, whose question it is (R21.15, R21.18), from the machine's record when it was first asked. */
  askedFor: z.optional(QuestionOwnerSchema),
});
export type InteractionRecord = z.infer<typeof InteractionRecordSchema>;

export const InteractionRequestedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('interaction.requested'),
  interaction: InteractionRecordSchema,
});

export const InteractionResolvedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('interaction.resolved'),
  resolution: InteractionResolutionSchema,
});

/** The runtime acknowledged receiving the resolution (R10.5). */
export const InteractionDeliveredEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('interaction.delivered'),
  requestId: InteractionIdSchema,
});

/** The tool call was aborted before anyone answered. */
export const InteractionWithdrawnEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('interaction.withdrawn'),
  requestId: InteractionIdSchema,
  reason: z.optional(z.string().check(z.maxLength(DECLINE_MESSAGE_MAX))),
  /** The agent's terminal answered first (R18.6). */
  terminalAnswer: z.optional(TerminalAnswerSchema),
  /** Of an interaction already resolved: the agent refused that answer, its terminal's came first (R18.25). */
  afterAnswer: z.optional(z.literal(true)),
});

/**
 * A secret answer lives in the host's memory only, never in the log (R12.13): the host restarted before
 * the agent acknowledged one, so the question is pending again and asked anew, never answered with the mask.
 */
export const InteractionReopenedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('interaction.reopened'),
  requestId: InteractionIdSchema,
});

/**
 * An owner or admin gave a pending question to someone else (R21.23): from this event on it is that person's, seen,
 * notified and answered by them (and by whoever sees everything).
 */
export const InteractionHandedOverEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('interaction.handed-over'),
  requestId: InteractionIdSchema,
  to: PersonNameRefSchema,
  by: z.optional(PersonNameRefSchema),
  /** The device it was handed over from. */
  byDeviceId: z.optional(IdSchema),
});

/** R6.3: every auto-resolution change, with absolute times. */
export const UserInputAutoResolutionUpdatedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('UserInputAutoResolutionUpdated'),
  requestId: InteractionIdSchema,
  autoResolution: AutoResolutionStateSchema,
});

export const PreferencesUpdatedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('preferences.updated'),
  preferences: PreferencesSchema,
});

/** A device exchanged a pairing code for its credential (R16.2). The credential's hash is never in the log. */
export const DevicePairedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('device.paired'),
  device: z.strictObject({
    id: IdSchema,
    name: DeviceRecordSchema.shape.name,
    platform: DeviceRecordSchema.shape.platform,
    /** On a team hub, the person who signed in to pair it (R21.12); absent on a personal hub. */
    personId: z.optional(IdSchema),
  }),
});

export const DeviceRenamedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('device.renamed'),
  deviceId: IdSchema,
  name: DeviceRecordSchema.shape.name,
});

/** The device's credential stops working at once (R16.5). `byDeviceId`: revoked from that device's Settings. */
export const DeviceRevokedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('device.revoked'),
  deviceId: IdSchema,
  byDeviceId: z.optional(IdSchema),
});

/** A machine exchanged a join code for its credential (R17.1). The credential's hash is never in the log. */
export const MachineJoinedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('machine.joined'),
  machine: z.strictObject({
    id: JoinedMachineIdSchema,
    name: MachineNameSchema,
    /** On a team hub, the person whose device minted the join code: the machine and its questions are theirs (R21.15). */
    personId: z.optional(IdSchema),
    /** On a team hub, a shared machine's group (R21.18): its questions go to the group's members. */
    groupId: z.optional(IdSchema),
  }),
});

/**
 * The machine's credential stops working at once and its live connections drop (R17.2); its
 * pending interactions are withdrawn. `byDeviceId`: revoked from that device's Settings.
 */
export const MachineRevokedEventSchema = z.strictObject({
  ...eventBase,
  type: z.literal('machine.revoked'),
  machineId: JoinedMachineIdSchema,
  byDeviceId: z.optional(IdSchema),
});

export const HostEventSchema = z.discriminatedUnion('type', [
  InteractionRequestedEventSchema,
  InteractionResolvedEventSchema,
  InteractionDeliveredEventSchema,
  InteractionWithdrawnEventSchema,
  InteractionReopenedEventSchema,
  InteractionHandedOverEventSchema,
  UserInputAutoResolutionUpdatedEventSchema,
  PreferencesUpdatedEventSchema,
  DevicePairedEventSchema,
  DeviceRenamedEventSchema,
  DeviceRevokedEventSchema,
  MachineJoinedEventSchema,
  MachineRevokedEventSchema,
  PersonAddedEventSchema,
  PersonSignedInEventSchema,
  PersonJoinCodeMintedEventSchema,
  PersonRemovedEventSchema,
  PersonRoleChangedEventSchema,
  GroupSavedEventSchema,
  GroupRemovedEventSchema,
  GroupJoinCodeMintedEventSchema,
  AuditRecordedEventSchema,
]);
/** One entry of the host's durable log. */
export type HostEvent = z.infer<typeof HostEventSchema>;
export type HostEventType = HostEvent['type'];
/** An event before the store has given it a seq. */
export type NewHostEvent = HostEvent extends infer E ? (E extends HostEvent ? Omit<E, 'seq'> : never) : never;
export type UserInputAutoResolutionUpdated = z.infer<typeof UserInputAutoResolutionUpdatedEventSchema>;
/** Events about who may connect rather than about interactions. */
export type DeviceEvent = Extract<HostEvent, { type: `device.${string}` }>;
export type NewDeviceEvent = DeviceEvent extends infer E ? (E extends DeviceEvent ? Omit<E, 'seq'> : never) : never;
/** Events about which machines may ask (R17.1, R17.2). */
export type MachineEvent = Extract<HostEvent, { type: `machine.${string}` }>;
export type NewMachineEvent = MachineEvent extends infer E ? (E extends MachineEvent ? Omit<E, 'seq'> : never) : never;
/** Events about the groups of a team hub (R21.18). */
export type GroupEvent = Extract<HostEvent, { type: `group.${string}` }>;
export type NewGroupEvent = GroupEvent extends infer E ? (E extends GroupEvent ? Omit<E, 'seq'> : never) : never;
/** Events about the people of a team hub (R21). */
export type PersonEvent = Extract<HostEvent, { type: `person.${string}` }>;
export type NewPersonEvent = PersonEvent extends infer E ? (E extends PersonEvent ? Omit<E, 'seq'> : never) : never;
