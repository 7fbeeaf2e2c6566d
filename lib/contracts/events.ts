import { z } from 'zod';
import {
  AutoResolutionStateSchema,
  DECLINE_MESSAGE_MAX,
  IdSchema,
  InteractionContextSchema,
  InteractionOriginSchema,
  InteractionResolutionSchema,
  IsoTimeSchema,
  withPayload,
} from './interaction';
import { PreferencesSchema } from './preferences';

/** Every stored event has a seq and an absolute time. */
const eventBase = { seq: z.number().int().positive(), at: IsoTimeSchema };

/** The durable record of an interaction (no protocolRequestId: that is in-memory routing). */
export const InteractionRecordSchema = withPayload({
  requestId: IdSchema,
  sessionId: IdSchema,
  origin: InteractionOriginSchema.optional(),
  toolName: z.string().max(200),
  toolUseId: IdSchema.optional(),
  context: InteractionContextSchema.optional(),
  createdAt: IsoTimeSchema,
});
export type InteractionRecord = z.infer<typeof InteractionRecordSchema>;

export const InteractionRequestedEventSchema = z
  .object({ ...eventBase, type: z.literal('interaction.requested'), interaction: InteractionRecordSchema })
  .strict();

export const InteractionResolvedEventSchema = z
  .object({ ...eventBase, type: z.literal('interaction.resolved'), resolution: InteractionResolutionSchema })
  .strict();

/** The runtime acknowledged receiving the resolution (R10.5). */
export const InteractionDeliveredEventSchema = z
  .object({ ...eventBase, type: z.literal('interaction.delivered'), requestId: IdSchema })
  .strict();

/** The tool call was aborted before anyone answered. */
export const InteractionWithdrawnEventSchema = z
  .object({
    ...eventBase,
    type: z.literal('interaction.withdrawn'),
    requestId: IdSchema,
    reason: z.string().max(DECLINE_MESSAGE_MAX).optional(),
  })
  .strict();

/** R6.3: every auto-resolution change, with absolute times. */
export const UserInputAutoResolutionUpdatedEventSchema = z
  .object({
    ...eventBase,
    type: z.literal('UserInputAutoResolutionUpdated'),
    requestId: IdSchema,
    autoResolution: AutoResolutionStateSchema,
  })
  .strict();

export const PreferencesUpdatedEventSchema = z
  .object({ ...eventBase, type: z.literal('preferences.updated'), preferences: PreferencesSchema })
  .strict();

export const HostEventSchema = z.discriminatedUnion('type', [
  InteractionRequestedEventSchema,
  InteractionResolvedEventSchema,
  InteractionDeliveredEventSchema,
  InteractionWithdrawnEventSchema,
  UserInputAutoResolutionUpdatedEventSchema,
  PreferencesUpdatedEventSchema,
]);
/** One entry of the host's durable log. */
export type HostEvent = z.infer<typeof HostEventSchema>;
export type HostEventType = HostEvent['type'];
/** An event before the store has given it a seq. */
export type NewHostEvent = HostEvent extends infer E ? (E extends HostEvent ? Omit<E, 'seq'> : never) : never;
export type UserInputAutoResolutionUpdated = z.infer<typeof UserInputAutoResolutionUpdatedEventSchema>;
