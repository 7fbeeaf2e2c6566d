import { z } from 'zod';
import {
  AskUserQuestionAnnotationsSchema,
  AskUserQuestionAnswersSchema,
  AskUserQuestionInputSchema,
} from './ask-user-question';

/** Bounds on identifiers and free text carried by interactions (R12.3). */
export const ID_MAX = 200;
export const CONTEXT_MESSAGE_MAX = 8_000;
export const DECLINE_MESSAGE_MAX = 2_000;
export const PLAN_MAX = 100_000;
export const PERMISSION_INPUT_MAX_JSON = 20_000;

export const IdSchema = z.string().min(1).max(ID_MAX);
export const IsoTimeSchema = z.iso.datetime({ offset: true });

/** What kind of prompt an interaction is (R3.2). */
export const InteractionKindSchema = z.enum(['question', 'plan-approval', 'permission']);
export type InteractionKind = z.infer<typeof InteractionKindSchema>;

/**
 * Who really asked (R7.1–R7.3). `path` lists agent names from the root's direct
 * child down to the asker; depth 0 means the root agent itself.
 */
export const InteractionOriginSchema = z
  .object({
    kind: z.enum(['root', 'subagent']),
    label: z.string().max(ID_MAX),
    path: z.array(z.string().max(80)).max(16),
    depth: z.number().int().min(0).max(16),
    agentId: IdSchema.optional(),
    agentType: z.string().max(ID_MAX).optional(),
    /** The asking agent's own session. */
    sessionId: IdSchema.optional(),
    parentSessionId: IdSchema.optional(),
    turnId: IdSchema.optional(),
    /** The runtime's client, e.g. an MCP client's name and version. */
    client: z.object({ name: z.string().max(ID_MAX), version: z.string().max(80).optional() }).strict().optional(),
  })
  .strict();
export type InteractionOrigin = z.infer<typeof InteractionOriginSchema>;

/** What travels with a question so the person can answer with context (R9.10). */
export const InteractionContextSchema = z
  .object({
    agentMessage: z.string().max(CONTEXT_MESSAGE_MAX).optional(),
    cwd: z.string().max(1_000).optional(),
    projectName: z.string().max(ID_MAX).optional(),
    sessionTitle: z.string().max(ID_MAX).optional(),
  })
  .strict();
export type InteractionContext = z.infer<typeof InteractionContextSchema>;

export const PlanApprovalInputSchema = z.object({ plan: z.string().min(1).max(PLAN_MAX) }).passthrough();
export type PlanApprovalInput = z.infer<typeof PlanApprovalInputSchema>;

export const PermissionInputSchema = z
  .record(z.string(), z.unknown())
  .refine((input) => JSON.stringify(input).length <= PERMISSION_INPUT_MAX_JSON, {
    message: `Tool input must be at most ${PERMISSION_INPUT_MAX_JSON} characters of JSON`,
  });
export type PermissionInput = z.infer<typeof PermissionInputSchema>;

/** The input of an interaction for each kind (R3.2). */
const payloadShapes = {
  question: { kind: z.literal('question'), input: AskUserQuestionInputSchema },
  planApproval: { kind: z.literal('plan-approval'), input: PlanApprovalInputSchema },
  permission: { kind: z.literal('permission'), input: PermissionInputSchema },
};

/** A strict object tagged by kind, whose input matches the kind. */
export function withPayload<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.discriminatedUnion('kind', [
    z.object({ ...shape, ...payloadShapes.question }).strict(),
    z.object({ ...shape, ...payloadShapes.planApproval }).strict(),
    z.object({ ...shape, ...payloadShapes.permission }).strict(),
  ]);
}

export const InteractionPayloadSchema = withPayload({});
export type InteractionPayload = z.infer<typeof InteractionPayloadSchema>;

/** Auto-resolution state of one interaction, with absolute times (R6.2, R6.3). */
export const AutoResolutionStateSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('disabled') }).strict(),
  z
    .object({
      status: z.literal('scheduled'),
      timeoutMs: z.number().int().positive(),
      scheduledAt: IsoTimeSchema,
      deadlineAt: IsoTimeSchema,
    })
    .strict(),
]);
export type AutoResolutionState = z.infer<typeof AutoResolutionStateSchema>;

/**
 * A user's (or the scheduler's) response. `accept` answers a question (content
 * holds answers/annotations), approves a plan or allows a tool; `decline` may
 * carry a reason (R3.7) or plan feedback; `cancel` ends it without a choice.
 */
export const InteractionResponseSchema = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('accept'),
      content: z
        .object({
          answers: AskUserQuestionAnswersSchema.optional(),
          annotations: AskUserQuestionAnnotationsSchema.optional(),
        })
        .strict()
        .optional(),
    })
    .strict(),
  z.object({ action: z.literal('decline'), message: z.string().max(DECLINE_MESSAGE_MAX).optional() }).strict(),
  z.object({ action: z.literal('cancel') }).strict(),
]);
export type InteractionResponse = z.infer<typeof InteractionResponseSchema>;

export const ResolvedBySchema = z.enum(['user', 'auto', 'runtime']);
export type ResolvedBy = z.infer<typeof ResolvedBySchema>;

export const DeviceSchema = z.object({ id: IdSchema, label: z.string().max(ID_MAX).optional() }).strict();
export type Device = z.infer<typeof DeviceSchema>;

/** How an interaction ended: the winning response (R10.3). */
export const InteractionResolutionSchema = z
  .object({
    requestId: IdSchema,
    response: InteractionResponseSchema,
    resolvedBy: ResolvedBySchema,
    resolvedAt: IsoTimeSchema,
    /** The winning client's idempotency key. */
    clientResponseId: IdSchema.optional(),
    device: DeviceSchema.optional(),
  })
  .strict();
export type InteractionResolution = z.infer<typeof InteractionResolutionSchema>;

/** What a runtime announces, and re-announces every second while waiting (R8.1). */
export const InteractionRequestSchema = withPayload({
  requestId: IdSchema,
  protocolRequestId: IdSchema,
  sessionId: IdSchema,
  origin: InteractionOriginSchema.optional(),
  toolName: z.string().min(1).max(ID_MAX),
  toolUseId: IdSchema.optional(),
  context: InteractionContextSchema.optional(),
  createdAt: IsoTimeSchema,
});
export type InteractionRequest = z.infer<typeof InteractionRequestSchema>;

export const InteractionStatusSchema = z.enum(['pending', 'resolved', 'withdrawn']);
export type InteractionStatus = z.infer<typeof InteractionStatusSchema>;

/** An interaction as remotes see it: the projection of the log for one requestId. */
export const InteractionViewSchema = withPayload({
  requestId: IdSchema,
  sessionId: IdSchema,
  origin: InteractionOriginSchema.optional(),
  toolName: z.string().max(ID_MAX),
  toolUseId: IdSchema.optional(),
  context: InteractionContextSchema.optional(),
  createdAt: IsoTimeSchema,
  status: InteractionStatusSchema,
  autoResolution: AutoResolutionStateSchema,
  resolution: InteractionResolutionSchema.optional(),
  /** When the runtime acknowledged the resolution (R10.5). */
  deliveredAt: IsoTimeSchema.optional(),
  withdrawnAt: IsoTimeSchema.optional(),
  withdrawnReason: z.string().max(DECLINE_MESSAGE_MAX).optional(),
});
export type InteractionView = z.infer<typeof InteractionViewSchema>;
