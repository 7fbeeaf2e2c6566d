import * as z from 'zod/mini';
import {
  ASK_USER_QUESTION_TOOL_NAME,
  AskUserQuestionAnnotationsSchema,
  AskUserQuestionAnswersSchema,
  AskUserQuestionInputSchema,
  EXIT_PLAN_MODE_TOOL_NAME,
} from './ask-user-question';
import { AgentRefSchema } from './agent';
import { ApprovalInputSchema } from './approval';
import {
  AGENT_INPUT_RULES,
  CLAUDE_CODE_INPUT_RULES,
  ClaudeCodeAskUserQuestionInputSchema,
} from './claude-code-question';
import { FinishedTurnInputSchema } from './finished-turn';
import { FormInputSchema, FormValuesSchema } from './form';
import { jsonShapeProblem, TOOL_INPUT_SHAPE_LIMITS } from './json-shape';
import { INTERACTION_KEY_EXTRA } from './machine-keys';
import { MachineRefSchema } from './machine-ref';
import { HandOverSchema, PersonNameRefSchema, QuestionOwnerSchema } from './team-names';
import {
  CONTEXT_MESSAGE_MAX,
  DECLINE_MESSAGE_MAX,
  FINISHED_TURN_REPLY_MAX,
  ID_MAX,
  PERMISSION_INPUT_MAX_JSON,
  PLAN_MAX,
} from './limits';

export const IdSchema = z.string().check(z.minLength(1), z.maxLength(ID_MAX));
/** The host's id of an interaction: a runtime's request id, with its machine's id in front for a joined machine (R17.4). */
export const INTERACTION_ID_MAX = ID_MAX + INTERACTION_KEY_EXTRA;
export const InteractionIdSchema = z.string().check(z.minLength(1), z.maxLength(INTERACTION_ID_MAX));
export const IsoTimeSchema = z.iso.datetime({ offset: true });

const text = (max: number) => z.string().check(z.maxLength(max));

/**
 * What kind of prompt an interaction is (R3.2): a question, a plan to approve, a tool permission (Allow /
 * Deny), an agent's approval with the choices it offers (R18.3), an MCP server's form (R18.4), or an agent's
 * finished turn, whose answer is the session's next prompt (R19.1).
 */
export const InteractionKindSchema = z.enum([
  'question',
  'plan-approval',
  'permission',
  'approval',
  'form',
  'finished-turn',
]);
export type InteractionKind = z.infer<typeof InteractionKindSchema>;

/**
 * The kind each tool's interaction has (R3.2): the broker dispatches by it, and the host refuses
 * AskUserQuestion or ExitPlanMode announced as anything else, because an Allow/Deny prompt cannot
 * carry answers or plan feedback back into the tool input (R3.3).
 */
export function interactionKindForTool(toolName: string): InteractionKind {
  if (toolName === ASK_USER_QUESTION_TOOL_NAME) return 'question';
  if (toolName === EXIT_PLAN_MODE_TOOL_NAME) return 'plan-approval';
  return 'permission';
}

/**
 * Who really asked (R7.1–R7.3). `path` lists agent names from the root's direct
 * child down to the asker; depth 0 means the root agent itself.
 */
export const InteractionOriginSchema = z.strictObject({
  kind: z.enum(['root', 'subagent']),
  label: text(ID_MAX),
  path: z.array(text(80)).check(z.maxLength(16)),
  depth: z.int().check(z.minimum(0), z.maximum(16)),
  agentId: z.optional(IdSchema),
  agentType: z.optional(text(ID_MAX)),
  /** The asking agent's own session. */
  sessionId: z.optional(IdSchema),
  parentSessionId: z.optional(IdSchema),
  turnId: z.optional(IdSchema),
  /** The runtime's client, e.g. an MCP client's name and version. */
  client: z.optional(z.strictObject({ name: text(ID_MAX), version: z.optional(text(80)) })),
});
export type InteractionOrigin = z.infer<typeof InteractionOriginSchema>;

/** What travels with a question so the person can answer with context (R9.10). */
export const InteractionContextSchema = z.strictObject({
  agentMessage: z.optional(text(CONTEXT_MESSAGE_MAX)),
  cwd: z.optional(text(1_000)),
  projectName: z.optional(text(ID_MAX)),
  sessionTitle: z.optional(text(ID_MAX)),
  /**
   * What declining means for this agent, in words the card shows beside Decline, when it is more than "the
   * agent carries on without an answer": OpenCode ends its turn when a question is dismissed (R18.23).
   */
  declineNote: z.optional(text(DECLINE_MESSAGE_MAX)),
  /**
   * The agent shows this prompt in its own terminal too, and the first answer wins (R11.10): the card
   * says so, since a phone answer closes the terminal's dialog even while someone types in it.
   */
  openInTerminal: z.optional(z.boolean()),
  /**
   * When the agent itself goes on without an answer, whatever Askaway's auto-resolution says: Codex resolves
   * a Default-mode question unanswered about 2 minutes after it asked (R18.11). The card counts down to it.
   */
  agentDeadlineAt: z.optional(IsoTimeSchema),
  /**
   * The agent's terminal shows nothing of this prompt until then, and asks there itself from then on: the phone
   * has until this time (R11.11, Claude Code's MCP forms). The card counts down to it and says where it goes.
   */
  movesToTerminalAt: z.optional(IsoTimeSchema),
});
export type InteractionContext = z.infer<typeof InteractionContextSchema>;

/** Longest plan file path carried with a plan approval. */
export const PLAN_FILE_PATH_MAX = 4_096;

/**
 * A plan to approve (R3.2). `plan` may be missing: Claude Code can send ExitPlanMode
 * with no plan text (it keeps the plan in a file, or the model wrote none), and the
 * person can still approve or reject. `planFilePath` says where Claude Code keeps it.
 */
export const PlanApprovalInputSchema = z.looseObject({
  plan: z.optional(z.string().check(z.minLength(1), z.maxLength(PLAN_MAX))),
  planFilePath: z.optional(z.string().check(z.minLength(1), z.maxLength(PLAN_FILE_PATH_MAX))),
});
export type PlanApprovalInput = z.infer<typeof PlanApprovalInputSchema>;

/**
 * Any tool's input, bounded (R12.3): its shape first, so that measuring it as JSON can never
 * recurse past the stack, whatever a runtime sends.
 */
export const PermissionInputSchema = z.record(z.string(), z.unknown()).check(
  z.superRefine((input, context) => {
    const problem = jsonShapeProblem(input, TOOL_INPUT_SHAPE_LIMITS);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: `Tool input ${problem}`, input });
    else if (JSON.stringify(input).length > PERMISSION_INPUT_MAX_JSON)
      context.addIssue({
        code: 'custom',
        message: `Tool input must be at most ${PERMISSION_INPUT_MAX_JSON} characters of JSON`,
        input,
      });
  }),
);
export type PermissionInput = z.infer<typeof PermissionInputSchema>;

/**
 * Which contract a question's input follows. Absent: Askaway's strict
 * AskUserQuestion contract. `claude-code`: what Claude Code itself accepts, for
 * questions that come through its hook (R11.5); the remote then keeps an option
 * labelled "Other" as an ordinary option and shows the extended kinds. `agent`: the
 * same lenient contract for another agent's own question tool (Codex, OpenCode).
 */
export const InputRulesSchema = z.enum(['askaway', CLAUDE_CODE_INPUT_RULES, AGENT_INPUT_RULES]);
export type InputRules = z.infer<typeof InputRulesSchema>;

/** The input of an interaction for each kind (R3.2). */
const payloadShapes = {
  question: {
    kind: z.literal('question'),
    inputRules: z.optional(z.literal('askaway')),
    input: AskUserQuestionInputSchema,
  },
  claudeCodeQuestion: {
    kind: z.literal('question'),
    inputRules: z.literal(CLAUDE_CODE_INPUT_RULES),
    input: ClaudeCodeAskUserQuestionInputSchema,
  },
  agentQuestion: {
    kind: z.literal('question'),
    inputRules: z.literal(AGENT_INPUT_RULES),
    input: ClaudeCodeAskUserQuestionInputSchema,
  },
  planApproval: { kind: z.literal('plan-approval'), input: PlanApprovalInputSchema },
  permission: { kind: z.literal('permission'), input: PermissionInputSchema },
  approval: { kind: z.literal('approval'), input: ApprovalInputSchema },
  form: { kind: z.literal('form'), input: FormInputSchema },
  finishedTurn: { kind: z.literal('finished-turn'), input: FinishedTurnInputSchema },
};

/** A strict object tagged by kind (and, for questions, by input rules), whose input matches the kind. */
export function withPayload<Shape extends z.core.$ZodShape>(shape: Shape) {
  return z.discriminatedUnion('kind', [
    z.discriminatedUnion('inputRules', [
      z.strictObject({ ...shape, ...payloadShapes.question }),
      z.strictObject({ ...shape, ...payloadShapes.claudeCodeQuestion }),
      z.strictObject({ ...shape, ...payloadShapes.agentQuestion }),
    ]),
    z.strictObject({ ...shape, ...payloadShapes.planApproval }),
    z.strictObject({ ...shape, ...payloadShapes.permission }),
    z.strictObject({ ...shape, ...payloadShapes.approval }),
    z.strictObject({ ...shape, ...payloadShapes.form }),
    z.strictObject({ ...shape, ...payloadShapes.finishedTurn }),
  ]);
}

export const InteractionPayloadSchema = withPayload({});
export type InteractionPayload = z.infer<typeof InteractionPayloadSchema>;

/** Auto-resolution state of one interaction, with absolute times (R6.2, R6.3). */
export const AutoResolutionStateSchema = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('disabled') }),
  z.strictObject({
    status: z.literal('scheduled'),
    timeoutMs: z.int().check(z.positive()),
    scheduledAt: IsoTimeSchema,
    deadlineAt: IsoTimeSchema,
  }),
]);
export type AutoResolutionState = z.infer<typeof AutoResolutionStateSchema>;

/**
 * A user's (or the scheduler's) response. `accept` answers a question (content
 * holds answers/annotations), approves a plan or allows a tool; `decline` may
 * carry a reason (R3.7) or plan feedback; `cancel` ends it without a choice.
 */
export const InteractionResponseSchema = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('accept'),
    content: z.optional(
      z.strictObject({
        answers: z.optional(AskUserQuestionAnswersSchema),
        annotations: z.optional(AskUserQuestionAnnotationsSchema),
        /** An approval (R18.3): the id of the choice taken, one whose effect allows. */
        choice: z.optional(IdSchema),
        /** A form (R18.4): the value of each field filled in, by field name. */
        values: z.optional(FormValuesSchema),
        /** A finished turn (R19.4): the session's next prompt, plain text. */
        reply: z.optional(text(FINISHED_TURN_REPLY_MAX)),
      }),
    ),
  }),
  z.strictObject({ action: z.literal('decline'), message: z.optional(text(DECLINE_MESSAGE_MAX)) }),
  z.strictObject({ action: z.literal('cancel') }),
]);
export type InteractionResponse = z.infer<typeof InteractionResponseSchema>;

/**
 * The agent's own prompt was answered first, in its terminal (or its SDK host), while the phone showed
 * it too (R18.6): the card leaves as "answered in the terminal", with what was chosen when the agent
 * tells it. Validated against the interaction by the host; one it cannot read is kept without `response`.
 */
/**
 * An answer the agent's own side gave first (R18.6): what it chose when the agent said, and where, when that is
 * an editor's dialog (an ACP agent's, R18.39) rather than the agent's terminal.
 */
export const TerminalAnswerSchema = z.strictObject({
  response: z.optional(InteractionResponseSchema),
  where: z.optional(z.enum(['terminal', 'editor'])),
});
export type TerminalAnswer = z.infer<typeof TerminalAnswerSchema>;

export const ResolvedBySchema = z.enum(['user', 'auto', 'runtime']);
export type ResolvedBy = z.infer<typeof ResolvedBySchema>;

export const DeviceSchema = z.strictObject({
  id: IdSchema,
  label: z.optional(text(ID_MAX)),
  /** On a team hub, the device's person when it answered (R21.22): "Answered by Ana on her Pixel". */
  person: z.optional(PersonNameRefSchema),
});
export type Device = z.infer<typeof DeviceSchema>;

/** How an interaction ended: the winning response (R10.3). */
export const InteractionResolutionSchema = z.strictObject({
  /** The host's id of the interaction; to a runtime, its own request id. */
  requestId: InteractionIdSchema,
  response: InteractionResponseSchema,
  resolvedBy: ResolvedBySchema,
  resolvedAt: IsoTimeSchema,
  /** The winning client's idempotency key. */
  clientResponseId: z.optional(IdSchema),
  device: z.optional(DeviceSchema),
});
export type InteractionResolution = z.infer<typeof InteractionResolutionSchema>;

/** What a runtime announces, and re-announces every second while waiting (R8.1). */
export const InteractionRequestSchema = withPayload({
  requestId: IdSchema,
  protocolRequestId: IdSchema,
  sessionId: IdSchema,
  /** Which agent asked (R18.1); absent from runtimes older than agents, inferred then (`agentOf`). */
  agent: z.optional(AgentRefSchema),
  origin: z.optional(InteractionOriginSchema),
  toolName: z.string().check(z.minLength(1), z.maxLength(ID_MAX)),
  toolUseId: z.optional(IdSchema),
  context: z.optional(InteractionContextSchema),
  createdAt: IsoTimeSchema,
});
export type InteractionRequest = z.infer<typeof InteractionRequestSchema>;

export const InteractionStatusSchema = z.enum(['pending', 'resolved', 'withdrawn']);
export type InteractionStatus = z.infer<typeof InteractionStatusSchema>;

/** An interaction as remotes see it: the projection of the log for one requestId. */
export const InteractionViewSchema = withPayload({
  /** The host's id (R17.4): unique across machines, what remotes respond to and link to. */
  requestId: InteractionIdSchema,
  /** The machine that asked (R17.3); sessions are grouped within it, since two machines may share a session id. */
  machine: MachineRefSchema,
  sessionId: IdSchema,
  agent: z.optional(AgentRefSchema),
  origin: z.optional(InteractionOriginSchema),
  toolName: text(ID_MAX),
  toolUseId: z.optional(IdSchema),
  context: z.optional(InteractionContextSchema),
  createdAt: IsoTimeSchema,
  status: InteractionStatusSchema,
  autoResolution: AutoResolutionStateSchema,
  resolution: z.optional(InteractionResolutionSchema),
  /** When the runtime acknowledged the resolution (R10.5). */
  deliveredAt: z.optional(IsoTimeSchema),
  withdrawnAt: z.optional(IsoTimeSchema),
  withdrawnReason: z.optional(text(DECLINE_MESSAGE_MAX)),
  /** Withdrawn because the agent's terminal answered first (R18.6). */
  terminalAnswer: z.optional(TerminalAnswerSchema),
  /** On a team hub, whose question it is (R21.22): the person or group of the machine that asked. */
  askedFor: z.optional(QuestionOwnerSchema),
  /** An admin handed it to someone else (R21.23); the last hand-over wins. */
  handedOver: z.optional(HandOverSchema),
});
export type InteractionView = z.infer<typeof InteractionViewSchema>;
