import { followTranscript, type FollowOptions } from './follow-transcript';
import { type ClaudeCodeHookPayload } from './hook-payload';
import { settlementMatcher } from './transcript-settlement';

/** Shown on the phone when the person answered Claude Code's own prompt first. */
export const ANSWERED_IN_TERMINAL_REASON = 'Answered in the terminal';

/**
 * Calls `answered` once the transcript shows that this PermissionRequest's prompt was decided in the
 * terminal. Claude Code 2.1.332's interactive UI shows its own dialog while the hook runs and, when the
 * person answers there, leaves the hook running (it stops it only when the turn is interrupted). Returns
 * how to stop watching. Subagents' calls are not watched: 2.1.332's interactive UI runs every subagent in
 * the background and shows no terminal dialog for its prompts while the hook runs (checked with the binary:
 * the prompt reaches the phone, the agent's view shows only the pending call), so nothing can be answered
 * there first. Their calls are logged in a transcript of their own (`<session>/subagents/agent-<id>.jsonl`
 * beside the one the payload names), should a later release need it.
 */
export function watchTerminalAnswer(
  payload: ClaudeCodeHookPayload,
  startedAt: number,
  answered: () => void,
  options?: FollowOptions,
): () => void {
  if (!payload.transcript_path || payload.agent_id) return () => undefined;
  const matcher = settlementMatcher({ toolName: payload.tool_name, toolInput: payload.tool_input, startedAt });
  let done = false;
  const follower = followTranscript(
    payload.transcript_path,
    (lines, catchUp) => {
      if (done) return;
      if (!lines.some((line) => matcher.feed(line, catchUp))) return;
      done = true;
      follower.stop();
      answered();
    },
    options,
  );
  void follower.check();
  return () => follower.stop();
}
