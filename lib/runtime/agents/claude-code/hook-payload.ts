import { z } from 'zod';

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

/** `{}` means "no opinion": Claude Code carries on as if there were no hook. */
export type ClaudeCodeHookOutput = PreToolUseOutput | PermissionRequestOutput | Record<string, never>;
