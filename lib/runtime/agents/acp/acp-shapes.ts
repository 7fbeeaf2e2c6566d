// What the ACP proxy reads of the messages it relays (Agent Client Protocol v1, @agentclientprotocol/sdk 2.4's
// schema): JSON-RPC 2.0 envelopes, one per line, and the few methods that carry a prompt or say whose it is.
// Loose objects throughout: the proxy relays every message unchanged and only looks; a field it does not know
// changes nothing, and a message it cannot read is relayed all the same.
import * as z from 'zod/mini';

/** A JSON-RPC id: the proxy keys requests by `JSON.stringify(id)`, so `1` and `"1"` stay apart. */
export const JsonRpcIdSchema = z.union([z.string().check(z.maxLength(200)), z.number()]);
export type JsonRpcId = z.infer<typeof JsonRpcIdSchema>;

export const JsonRpcRequestSchema = z.looseObject({
  id: JsonRpcIdSchema,
  method: z.string().check(z.maxLength(200)),
  params: z.optional(z.unknown()),
});
export const JsonRpcNotificationSchema = z.looseObject({
  method: z.string().check(z.maxLength(200)),
  params: z.optional(z.unknown()),
});
export const JsonRpcResponseSchema = z.looseObject({
  id: z.union([JsonRpcIdSchema, z.null()]),
  result: z.optional(z.unknown()),
  error: z.optional(z.unknown()),
});

const text = (max: number) => z.string().check(z.maxLength(max));

/** `initialize`'s params, from the editor: whether it shows forms (`elicitation/create`). */
export const InitializeParamsSchema = z.looseObject({
  clientCapabilities: z.optional(
    z.looseObject({
      elicitation: z.optional(
        z.nullable(z.looseObject({ form: z.optional(z.unknown()), url: z.optional(z.unknown()) })),
      ),
    }),
  ),
});

/** `initialize`'s result, from the agent: its name for the card. */
export const InitializeResultSchema = z.looseObject({
  agentInfo: z.optional(
    z.nullable(
      z.looseObject({ name: text(200), title: z.optional(z.nullable(text(200))), version: z.optional(text(200)) }),
    ),
  ),
});

export const NewSessionParamsSchema = z.looseObject({ cwd: text(4_096) });
export const NewSessionResultSchema = z.looseObject({ sessionId: text(200) });
export const LoadSessionParamsSchema = z.looseObject({ sessionId: text(200), cwd: z.optional(text(4_096)) });
export const SessionCancelParamsSchema = z.looseObject({ sessionId: text(200) });
/** `session/prompt`'s params (from the editor), `session/close`'s: the session a turn starts in or that closes. */
export const SessionIdParamsSchema = z.looseObject({ sessionId: text(200) });
/** `session/prompt`'s result, from the agent: why the turn ended (`end_turn`, `cancelled`, …). */
export const PromptResultSchema = z.looseObject({ stopReason: z.optional(text(200)) });
/** A JSON-RPC error's message, which says why a prompt failed. */
export const JsonRpcErrorSchema = z.looseObject({ message: z.optional(z.string()) });
/** A model API's error passed on as JSON text in that message (Gemini CLI: the Gemini API's `{error: {message}}`). */
export const WrappedErrorSchema = z.looseObject({
  error: z.optional(z.looseObject({ message: z.optional(z.string()) })),
  message: z.optional(z.string()),
});

/**
 * `session/update`, from the agent: what the proxy reads of it to know the turn's last message (`agent_message_chunk`
 * text, its optional `messageId`) and which tool calls run meanwhile (`tool_call`, `tool_call_update` with a status).
 */
export const SessionUpdateParamsSchema = z.looseObject({
  sessionId: text(200),
  update: z.looseObject({
    sessionUpdate: text(200),
    content: z.optional(z.unknown()),
    messageId: z.optional(z.nullable(text(200))),
    toolCallId: z.optional(text(200)),
    status: z.optional(z.nullable(text(40))),
  }),
});
export type SessionUpdate = z.infer<typeof SessionUpdateParamsSchema>['update'];
export const TextBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string() });

export const CancelRequestParamsSchema = z.looseObject({ requestId: JsonRpcIdSchema });

export const PermissionOptionSchema = z.looseObject({
  optionId: text(200),
  name: text(200),
  kind: z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']),
});
export type PermissionOption = z.infer<typeof PermissionOptionSchema>;

const DiffContentSchema = z.looseObject({
  type: z.literal('diff'),
  path: text(4_096),
  oldText: z.optional(z.nullable(z.string())),
  newText: z.string(),
});
const TextContentSchema = z.looseObject({
  type: z.literal('content'),
  content: z.looseObject({ type: z.string(), text: z.optional(z.string()) }),
});

export const ToolCallSchema = z.looseObject({
  toolCallId: text(200),
  title: z.optional(z.nullable(z.string())),
  kind: z.optional(z.nullable(z.string())),
  /** Kept raw: each entry is read on its own, an unknown kind is left out. */
  content: z.optional(z.nullable(z.array(z.unknown()))),
  rawInput: z.optional(z.unknown()),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const RequestPermissionParamsSchema = z.looseObject({
  sessionId: text(200),
  toolCall: ToolCallSchema,
  options: z.array(PermissionOptionSchema).check(z.minLength(1), z.maxLength(16)),
});
export type RequestPermissionParams = z.infer<typeof RequestPermissionParamsSchema>;

export const CreateElicitationParamsSchema = z.looseObject({
  mode: z.string().check(z.maxLength(40)),
  message: z._default(z.string(), ''),
  sessionId: z.optional(text(200)),
  toolCallId: z.optional(z.nullable(text(200))),
  requestedSchema: z.optional(z.unknown()),
  url: z.optional(z.string()),
});
export type CreateElicitationParams = z.infer<typeof CreateElicitationParamsSchema>;

export function diffOf(entry: unknown): z.infer<typeof DiffContentSchema> | undefined {
  const parsed = DiffContentSchema.safeParse(entry);
  return parsed.success ? parsed.data : undefined;
}

export function textOf(entry: unknown): string | undefined {
  const parsed = TextContentSchema.safeParse(entry);
  return parsed.success ? parsed.data.content.text : undefined;
}
