// What Copilot CLI 1.0.102 sends over its `--ui-server` JSON-RPC port, as the bridge reads it: the
// `session.event` notifications for permission prompts and `ask_user` forms, their completions, the
// lifecycle notes that say which session the TUI shows, and the results of the few calls the bridge makes.
// Loose objects: a field Copilot adds later changes nothing.
import * as z from 'zod/mini';

const id = z.string().check(z.minLength(1), z.maxLength(200));
const text = z.optional(z.string());

/**
 * What the TUI shows for a permission (`promptRequest`; `session.permissions.pendingRequests` lists only
 * this part). `kind`: commands, write, read, mcp, url, memory, custom-tool, path, hook, and a few more
 * (extension-*, factory) that are shown as a tool.
 */
export const CopilotPromptSchema = z.looseObject({
  kind: z.string().check(z.minLength(1), z.maxLength(80)),
  toolCallId: text,
  intention: text,
  warning: text,
  canOfferSessionApproval: z.optional(z.boolean()),
  /** commands */
  fullCommandText: text,
  commandIdentifiers: z.optional(z.array(z.string())),
  /** write */
  fileName: text,
  diff: text,
  newFileContents: text,
  /** read */
  path: text,
  /** path */
  paths: z.optional(z.array(z.string())),
  accessKind: text,
  /** url */
  url: text,
  /** mcp, custom-tool, hook */
  serverName: text,
  toolName: text,
  toolTitle: text,
  toolDescription: text,
  args: z.optional(z.unknown()),
  toolArgs: z.optional(z.unknown()),
  hookMessage: text,
  /** memory */
  fact: text,
  subject: text,
});
export type CopilotPrompt = z.infer<typeof CopilotPromptSchema>;

/** `permission.requested`'s data. `permissionRequest` is the tool's own view; the bridge shows `promptRequest`. */
export const PermissionRequestedSchema = z.looseObject({
  requestId: id,
  permissionRequest: z.optional(z.looseObject({ kind: z.string(), toolCallId: text })),
  promptRequest: z.optional(CopilotPromptSchema),
  /** Settled by a permissionRequest hook: nothing waits. */
  resolvedByHook: z.optional(z.boolean()),
});
export type PermissionRequested = z.infer<typeof PermissionRequestedSchema>;

/** `permission.completed`'s data: `result.kind` is approved, approved-for-session, denied-interactively-by-user, … */
export const PermissionCompletedSchema = z.looseObject({
  requestId: id,
  result: z.optional(z.looseObject({ kind: z.string(), feedback: text })),
  /** `human_response` when the TUI's person answered (absent when a client's answer settled it). */
  decisionSource: text,
});

/** `elicitation.requested`'s data: `ask_user`'s form (every field optional: Copilot drops `required`). */
export const ElicitationRequestedSchema = z.looseObject({
  requestId: id,
  message: z._default(z.string(), ''),
  requestedSchema: z.optional(z.unknown()),
  mode: z.optional(z.string()),
  url: text,
  toolCallId: text,
  elicitationSource: text,
});
export type ElicitationRequested = z.infer<typeof ElicitationRequestedSchema>;

/** `elicitation.completed`'s data: the answer, whoever gave it. */
export const ElicitationCompletedSchema = z.looseObject({
  requestId: id,
  action: z.optional(z.string()),
  content: z.optional(z.record(z.string(), z.unknown())),
});

/** `subagent.started`'s data: names the subagent whose events carry `agentId`. */
export const SubagentStartedSchema = z.looseObject({
  agentName: text,
  agentDisplayName: text,
  agentDescription: text,
  agentType: text,
});

export const TitleChangedSchema = z.looseObject({ title: z.string() });

/** One `session.event` notification's params. */
export const SessionEventParamsSchema = z.looseObject({
  sessionId: id,
  event: z.looseObject({
    type: z.string(),
    data: z.optional(z.unknown()),
    agentId: z.optional(z.string()),
    id: z.optional(z.string()),
  }),
});
export type SessionEvent = z.infer<typeof SessionEventParamsSchema>['event'];

/** One `session.lifecycle` notification's params: `session.foreground` when the TUI shows another session. */
export const LifecycleParamsSchema = z.looseObject({ type: z.string(), sessionId: id });

/** `connect`'s result. */
export const ConnectResultSchema = z.looseObject({
  ok: z.optional(z.boolean()),
  protocolVersion: z.optional(z.number()),
  version: z.optional(z.string()),
});

/** `session.getForeground`'s result: no session yet while the TUI starts. */
export const ForegroundResultSchema = z.looseObject({ sessionId: z.optional(z.nullable(z.string())) });

/** `session.resume`'s result (its working directory is not in it: the bridge knows the TUI's). */
export const ResumeResultSchema = z.looseObject({ sessionId: id });

/** `session.permissions.pendingRequests`'s result. */
export const PendingPermissionsSchema = z.looseObject({
  items: z.array(z.looseObject({ requestId: id, request: CopilotPromptSchema })),
});

/** `handlePendingPermissionRequest` and `handlePendingElicitation`: false when the prompt was already settled. */
export const HandledSchema = z.looseObject({ success: z.boolean() });

// Finished turns (R19.40–R19.46): what ends a turn, what it said, and the calls that send the phone's reply.

/** `user.message`'s data: a prompt starts an interaction (typed in the TUI, or sent by a client: `messageId`). */
export const UserMessageSchema = z.looseObject({ messageId: z.optional(id), interactionId: z.optional(id) });

/** `assistant.turn_start`'s data: one model call of the interaction the prompt started. */
export const TurnStartSchema = z.looseObject({ interactionId: z.optional(id) });

/** `assistant.message`'s data: what the model said (blank when it only called tools). */
export const AssistantMessageSchema = z.looseObject({
  messageId: id,
  content: z.optional(z.string()),
  interactionId: z.optional(id),
});

/** `session.error`'s data: why the interaction failed, before its `session.idle`. */
export const SessionErrorSchema = z.looseObject({ message: z.optional(z.string()) });

/** `session.idle`'s data: nothing runs, no background agent or shell either; `aborted` after Esc. */
export const IdleSchema = z.looseObject({ aborted: z.optional(z.boolean()) });

/** `session.metadata.isProcessing`'s result. */
export const ProcessingSchema = z.looseObject({ processing: z.boolean() });

/** `session.send`'s result: the id its `user.message` will carry. */
export const SendResultSchema = z.looseObject({ messageId: id });

/** `session.queue.pendingItems`'s result: messages waiting behind a running turn ("Queued (1)"). */
export const QueueItemsSchema = z.looseObject({
  items: z.array(z.looseObject({ messageId: z.optional(z.string()) })),
});

/** `session.queue.withdrawMessage`'s result. */
export const WithdrawResultSchema = z.looseObject({ removed: z.boolean() });
