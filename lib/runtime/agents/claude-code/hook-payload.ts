import { z } from 'zod';
import { type FormValues } from '../../../contracts';
import { type StopOutput } from './stop-payload';

/**
 * What Claude Code sends a hook on stdin (or as an HTTP hook's POST body) for
 * PreToolUse and PermissionRequest (R11.2). Lenient on purpose: Claude Code
 * adds fields over time, and a hook must never break the session it serves.
 */
export const ClaudeCodeHookPayloadSchema = z
  .object({
    session_id: z.string().min(1).max(200),
    transcript_path: z.string().max(4_096).optional(),
    cwd: z.string().max(4_096).optional(),
    hook_event_name: z.string().max(100),
    tool_name: z.string().min(1).max(200),
    tool_input: z.record(z.string(), z.unknown()),
    tool_use_id: z.string().max(200).optional(),
    permission_mode: z.string().max(100).optional(),
    /** The person's prompt the call belongs to (Claude Code 2.1.200 on); every call of that turn shares it. */
    prompt_id: z.string().max(200).optional(),
    /** Present when a subagent made the call. */
    agent_id: z.string().max(200).optional(),
    agent_type: z.string().max(200).optional(),
  })
  .passthrough();
export type ClaudeCodeHookPayload = z.infer<typeof ClaudeCodeHookPayloadSchema>;

/** PreToolUse reply: `allow` with `updatedInput` answers AskUserQuestion; `ask` hands over to the terminal. */
export interface PreToolUseOutput {
  hookSpecificOutput: {
    hookEventName: 'PreToolUse';
    permissionDecision: 'allow' | 'deny' | 'ask';
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    /** Read by the model beside the tool result (Claude Code: "PreToolUse:AskUserQuestion hook additional context: …"). */
    additionalContext?: string;
  };
}

/**
 * PermissionRequest reply: answers the permission dialog (plan approval, other tools).
 * An allow must carry `updatedInput`: Claude Code discards a bare allow for tools that
 * need the user (ExitPlanMode, AskUserQuestion), so the terminal would keep waiting.
 */
export interface PermissionRequestOutput {
  hookSpecificOutput: {
    hookEventName: 'PermissionRequest';
    decision: { behavior: 'allow'; updatedInput: Record<string, unknown> } | { behavior: 'deny'; message: string };
  };
}

/**
 * What Claude Code (2.1.63 on) sends the Elicitation hook when an MCP server asks for input
 * (`elicitation/create`, R11.11): the server's name, its message, and the form's schema as the server sent it
 * (`mode: "form"`) or a page to open (`mode: "url"`). Claude Code shows its own form only after the hook.
 */
export const ElicitationPayloadSchema = z
  .object({
    session_id: z.string().min(1).max(200),
    transcript_path: z.string().max(4_096).optional(),
    cwd: z.string().max(4_096).optional(),
    prompt_id: z.string().max(200).optional(),
    hook_event_name: z.literal('Elicitation'),
    mcp_server_name: z.string().min(1).max(200),
    message: z.string().max(100_000).default(''),
    /** MCP says a request without one is a form. */
    mode: z.string().max(100).default('form'),
    requested_schema: z.unknown().optional(),
    url: z.string().max(100_000).optional(),
    elicitation_id: z.string().max(200).optional(),
  })
  .passthrough();
export type ElicitationPayload = z.infer<typeof ElicitationPayloadSchema>;

/** The Elicitation hook's answer: the MCP server gets `action` and (accepted forms) `content` as they are. */
export interface ElicitationOutput {
  hookSpecificOutput: {
    hookEventName: 'Elicitation';
    action: 'accept' | 'decline' | 'cancel';
    content?: FormValues;
  };
}

/** `{}` means "no opinion": Claude Code carries on as if there were no hook. */
export type ClaudeCodeHookOutput =
  PreToolUseOutput | PermissionRequestOutput | ElicitationOutput | StopOutput | Record<string, never>;
