import { z } from 'zod';
import { ID_MAX } from '../../../contracts';

/**
 * The parts of Codex's app-server protocol (0.171.0, `codex app-server generate-ts`) the bridge reads.
 * Lenient on purpose: Codex adds fields between releases, and a field the bridge does not know must not
 * stop a prompt from reaching the phone. What it cannot read stays with the terminal.
 */

const text = z.string();
const optionalText = z.string().nullish();
/** What identifies the turn item a server request is about: its thread, turn and item (the model's call id). */
const turnItem = { threadId: text, turnId: text, itemId: text };

/** The server requests the bridge carries to the phone. */
export const CODEX_PROMPT_METHODS = {
  question: 'item/tool/requestUserInput',
  command: 'item/commandExecution/requestApproval',
  fileChange: 'item/fileChange/requestApproval',
  permissions: 'item/permissions/requestApproval',
  elicitation: 'mcpServer/elicitation/request',
} as const;
export type CodexPromptMethod = (typeof CODEX_PROMPT_METHODS)[keyof typeof CODEX_PROMPT_METHODS];

export function isPromptMethod(method: string): method is CodexPromptMethod {
  return (Object.values(CODEX_PROMPT_METHODS) as string[]).includes(method);
}

export const UserInputQuestionSchema = z
  .object({
    id: text,
    header: text.default(''),
    question: text,
    /** Codex 0.171 forces it true: its terminal adds "None of the above" with a note. */
    isOther: z.boolean().default(true),
    /** Set by the model's undocumented `isSecret: true`; the terminal masks the note, the model reads it in clear. */
    isSecret: z.boolean().default(false),
    options: z.array(z.object({ label: text, description: text.default('') }).passthrough()).nullish(),
  })
  .passthrough();
export type UserInputQuestion = z.infer<typeof UserInputQuestionSchema>;

export const RequestUserInputParamsSchema = z
  .object({
    ...turnItem,
    questions: z.array(UserInputQuestionSchema),
    /** False for a Default-mode question: Codex goes on without an answer after its own 2-minute timer. */
    isBlocking: z.boolean().default(true),
  })
  .passthrough();
export type RequestUserInputParams = z.infer<typeof RequestUserInputParamsSchema>;

/** One decision Codex offers for a command: a plain string, or an object naming a rule it would add. */
export const CommandDecisionSchema = z.union([
  z.enum(['accept', 'acceptForSession', 'decline', 'cancel']),
  z.object({ acceptWithExecpolicyAmendment: z.object({ execpolicy_amendment: z.array(text) }).passthrough() }),
  z.object({
    applyNetworkPolicyAmendment: z
      .object({ network_policy_amendment: z.object({ host: text, action: text }).passthrough() })
      .passthrough(),
  }),
]);
export type CommandDecision = z.infer<typeof CommandDecisionSchema>;

export const CommandApprovalParamsSchema = z
  .object({
    ...turnItem,
    /** The model's justification. */
    reason: optionalText,
    /** As Codex will run it, e.g. `/bin/bash -lc 'touch x'`. */
    command: optionalText,
    cwd: optionalText,
    proposedExecpolicyAmendment: z.array(text).nullish(),
    /** Only in the experimental schema, but sent to every client; it leaves out `decline`, which works. */
    availableDecisions: z.array(z.unknown()).nullish(),
  })
  .passthrough();
export type CommandApprovalParams = z.infer<typeof CommandApprovalParamsSchema>;

export const FileChangeApprovalParamsSchema = z
  .object({ ...turnItem, reason: optionalText, grantRoot: optionalText })
  .passthrough();
export type FileChangeApprovalParams = z.infer<typeof FileChangeApprovalParamsSchema>;

const FileSystemPermissionsSchema = z
  .object({ read: z.array(text).nullish(), write: z.array(text).nullish() })
  .passthrough();
const NetworkPermissionsSchema = z.object({ enabled: z.boolean().nullish() }).passthrough();

export const PermissionsApprovalParamsSchema = z
  .object({
    ...turnItem,
    cwd: optionalText,
    reason: optionalText,
    permissions: z
      .object({ network: NetworkPermissionsSchema.nullish(), fileSystem: FileSystemPermissionsSchema.nullish() })
      .passthrough(),
  })
  .passthrough();
export type PermissionsApprovalParams = z.infer<typeof PermissionsApprovalParamsSchema>;

export const ElicitationParamsSchema = z
  .object({
    threadId: text,
    turnId: optionalText,
    serverName: text,
    mode: text,
    message: text.default(''),
    requestedSchema: z.unknown().optional(),
    url: text.optional(),
    elicitationId: text.optional(),
    _meta: z.unknown().optional(),
  })
  .passthrough();
export type ElicitationParams = z.infer<typeof ElicitationParamsSchema>;

/** Codex's own approval of an MCP tool call arrives as an elicitation marked so. */
export const McpToolApprovalMetaSchema = z
  .object({
    codex_approval_kind: z.literal('mcp_tool_call'),
    persist: z.array(text).nullish(),
    tool_name: text.nullish(),
    tool_description: text.nullish(),
    tool_params: z.unknown().optional(),
  })
  .passthrough();

export const ThreadSchema = z
  .object({
    id: text,
    /** Title generation runs in ephemeral threads: not the person's. */
    ephemeral: z.boolean().default(false),
    cwd: optionalText,
    cliVersion: optionalText,
    name: optionalText,
    preview: optionalText,
    threadSource: optionalText,
    /** Set for a subagent's thread (and `source.subAgent`): its turns are not the person's (R19.20). */
    parentThreadId: optionalText,
    source: z.unknown().optional(),
    status: z
      .object({ type: text, activeFlags: z.array(text).optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();
export type CodexThread = z.infer<typeof ThreadSchema>;

export const ThreadReadResultSchema = z.object({ thread: ThreadSchema }).passthrough();
export const ThreadResumeResultSchema = z
  .object({
    thread: ThreadSchema.extend({ turns: z.array(z.unknown()).nullish() }),
    cwd: optionalText,
  })
  .passthrough();
export const LoadedThreadsSchema = z.object({ data: z.array(text), nextCursor: optionalText }).passthrough();

export const ThreadStartedSchema = z.object({ thread: ThreadSchema }).passthrough();
export const ThreadStatusChangedSchema = z
  .object({ threadId: text, status: z.object({ type: text, activeFlags: z.array(text).optional() }).passthrough() })
  .passthrough();
export const ThreadIdOnlySchema = z.object({ threadId: text }).passthrough();
export const ThreadNameUpdatedSchema = z.object({ threadId: text, threadName: optionalText }).passthrough();
export const ServerRequestResolvedSchema = z
  .object({ threadId: text, requestId: z.union([z.string(), z.number()]) })
  .passthrough();

export const FileUpdateChangeSchema = z
  .object({
    path: text,
    kind: z.object({ type: text, move_path: optionalText }).passthrough(),
    diff: text.default(''),
  })
  .passthrough();
export type FileUpdateChange = z.infer<typeof FileUpdateChangeSchema>;

/** `item/started` / `item/completed`: the file changes of a patch. */
export const ItemNotificationSchema = z
  .object({
    threadId: text,
    turnId: optionalText,
    item: z
      .object({
        type: text,
        id: text,
        changes: z.array(FileUpdateChangeSchema).optional(),
      })
      .passthrough(),
  })
  .passthrough();

/** `thread/items/list`: a turn's items, newest first when asked so. */
export const ItemListSchema = z
  .object({
    data: z.array(z.object({ item: z.object({ type: text, text: text.optional() }).passthrough() }).passthrough()),
  })
  .passthrough();

/** The statuses a turn ends with; `inProgress` while it runs. */
export const FINISHED_TURN_STATUSES = ['completed', 'interrupted', 'failed'] as const;

/** A turn as `turn/started`, `turn/completed`, `turn/start` and `thread/turns/list` carry it (R19.20). */
export const TurnSchema = z
  .object({
    /** A UUID in Codex: a longer one is nobody's turn, and would be kept (R12.19). */
    id: text.max(ID_MAX),
    status: text,
    error: z
      .object({ message: text.default('') })
      .passthrough()
      .nullish(),
    items: z
      .array(z.object({ type: text, text: text.optional() }).passthrough())
      .nullish()
      .transform((items) => items ?? []),
  })
  .passthrough();
export type CodexTurn = z.infer<typeof TurnSchema>;

/** `turn/started` and `turn/completed`. */
export const TurnNotificationSchema = z.object({ threadId: text.max(ID_MAX), turn: TurnSchema }).passthrough();
/** The answer to `turn/start`: the turn it started, or the running one it steered into. */
export const TurnStartResultSchema = z.object({ turn: TurnSchema }).passthrough();
/** `thread/turns/list`, newest first when asked so. */
export const TurnListSchema = z.object({ data: z.array(TurnSchema) }).passthrough();

/** `thread/goal/get`: the thread's goal, if any. While it is `active`, Codex starts the next turn itself. */
export const ThreadGoalResultSchema = z
  .object({ goal: z.object({ status: text }).passthrough().nullish() })
  .passthrough();
