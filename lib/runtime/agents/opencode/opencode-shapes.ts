// What OpenCode 1.18 sends and lists, as the bridge reads it: its question and permission requests, their
// events, and the session a request belongs to. Loose objects: a field OpenCode adds later changes nothing.
import * as z from 'zod/mini';

const id = z.string().check(z.minLength(1), z.maxLength(200));

/** `{messageID, callID}`: the tool call that waits. */
const ToolRefSchema = z.optional(z.looseObject({ messageID: z.optional(z.string()), callID: z.optional(z.string()) }));

export const OpenCodeQuestionSchema = z.looseObject({
  question: z.string(),
  header: z._default(z.string(), ''),
  options: z._default(z.array(z.looseObject({ label: z.string(), description: z._default(z.string(), '') })), []),
  /** Several options may be chosen. */
  multiple: z.optional(z.boolean()),
  /** False when only the options count (OpenCode's own plan_exit question); the person may type by default. */
  custom: z.optional(z.boolean()),
});
export type OpenCodeQuestion = z.infer<typeof OpenCodeQuestionSchema>;

/** `question.asked`'s properties, and one item of `GET /question`. */
export const OpenCodeQuestionRequestSchema = z.looseObject({
  id,
  sessionID: id,
  questions: z.array(OpenCodeQuestionSchema).check(z.minLength(1)),
  tool: ToolRefSchema,
});
export type OpenCodeQuestionRequest = z.infer<typeof OpenCodeQuestionRequestSchema>;

/** `permission.asked`'s properties, and one item of `GET /permission`. */
export const OpenCodePermissionRequestSchema = z.looseObject({
  id,
  sessionID: id,
  /** `bash`, `edit`, `webfetch`, `external_directory`, … */
  permission: z.string().check(z.minLength(1)),
  /** What this call needs: the command, the path relative to the worktree. */
  patterns: z._default(z.array(z.string()), []),
  /** `{command}` for bash, `{filepath, diff}` for edit/write. */
  metadata: z._default(z.record(z.string(), z.unknown()), {}),
  /** What "always" would allow from now on, e.g. `echo *`. */
  always: z._default(z.array(z.string()), []),
  tool: ToolRefSchema,
});
export type OpenCodePermissionRequest = z.infer<typeof OpenCodePermissionRequestSchema>;

/** `question.replied`, `question.rejected`, `permission.replied` (its `reply`: once | always | reject). */
export const OpenCodeReplyEventSchema = z.looseObject({
  sessionID: z.optional(z.string()),
  requestID: id,
  reply: z.optional(z.string()),
});

/** `session.idle`, `session.error`, `session.deleted` (whose session is under `info`). */
export const OpenCodeSessionEventSchema = z.looseObject({
  sessionID: z.optional(z.string()),
  info: z.optional(z.looseObject({ id: z.optional(z.string()) })),
});

/** `GET /session/:id`. */
export const OpenCodeSessionSchema = z.looseObject({
  id,
  title: z.optional(z.string()),
  parentID: z.optional(z.string()),
  /** The agent running it: `build`, `plan`, or a subagent such as `general`. */
  agent: z.optional(z.string()),
  directory: z.optional(z.string()),
});
export type OpenCodeSession = z.infer<typeof OpenCodeSessionSchema>;

/** `GET /session/status`: busy sessions by id (`{type: "busy" | "retry" | "idle"}`). */
export const OpenCodeSessionStatusSchema = z.record(z.string(), z.looseObject({ type: z.string() }));

/** An error as OpenCode reports it (`{name, data: {message}}`): `MessageAbortedError` for an abort. */
const OpenCodeErrorSchema = z.looseObject({
  name: z._default(z.string(), 'UnknownError'),
  data: z.optional(z.looseObject({ message: z.optional(z.string()) })),
});
export type OpenCodeError = z.infer<typeof OpenCodeErrorSchema>;

/** `session.error`: an abort (`MessageAbortedError`) or why the turn failed. */
export const OpenCodeSessionErrorSchema = z.looseObject({
  sessionID: z.optional(id),
  error: z.optional(OpenCodeErrorSchema),
});

/** A message's `info` (`message.updated`, `GET /session/:id/message`); an assistant's `parentID` is its turn's prompt. */
export const OpenCodeMessageInfoSchema = z.looseObject({
  id,
  sessionID: id,
  role: z.string(),
  parentID: z.optional(id),
  /** `stop`, `tool-calls`, … once the step ended. */
  finish: z.optional(z.string()),
  error: z.optional(OpenCodeErrorSchema),
});
export type OpenCodeMessageInfo = z.infer<typeof OpenCodeMessageInfoSchema>;

/** `message.updated`. */
export const OpenCodeMessageUpdatedSchema = z.looseObject({ info: OpenCodeMessageInfoSchema });

/** One message with its parts (`GET /session/:id/message/:messageID`, and each item of `GET /session/:id/message`). */
export const OpenCodeMessageWithPartsSchema = z.looseObject({
  info: OpenCodeMessageInfoSchema,
  parts: z._default(
    z.array(
      z.looseObject({
        type: z.string(),
        text: z.optional(z.string()),
        /** Added by OpenCode itself, not said by the model. */
        synthetic: z.optional(z.boolean()),
        ignored: z.optional(z.boolean()),
      }),
    ),
    [],
  ),
});
export type OpenCodeMessageWithParts = z.infer<typeof OpenCodeMessageWithPartsSchema>;

/** `GET /session/:id/message?limit=N`: the session's last N messages, oldest first. */
export const OpenCodeMessagesSchema = z.array(OpenCodeMessageWithPartsSchema);
