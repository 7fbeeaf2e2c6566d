// How a terminal answer is noticed (R18.2): Claude Code's own dialog answered first, as its transcript tells.
import {
  ASK_USER_QUESTION_TOOL_NAME,
  isRecord,
  type InteractionResponse,
  type TerminalAnswer,
} from '../../../contracts';
import { followTranscript, type FollowOptions } from './follow-transcript';
import { type ClaudeCodeHookPayload } from './hook-payload';
import { settlementMatcher, type Settlement } from './transcript-settlement';

/** Shown on the phone when the person answered Claude Code's own prompt first. */
export const ANSWERED_IN_TERMINAL_REASON = 'Answered in the terminal';
/** Another PermissionRequest hook (not Askaway's) decided the prompt first. */
export const ANSWERED_BY_OTHER_HOOK_REASON = 'Answered by another Claude Code hook';

/** Why the card leaves, and what the terminal chose (R18.6). */
export interface DecidedElsewhere {
  reason: string;
  terminalAnswer?: TerminalAnswer;
}

/**
 * Calls `decided` once the transcript shows that this PermissionRequest's prompt was decided elsewhere (in
 * the terminal). Claude Code 2.1.332 shows its own dialog while the hook runs and, when the person answers
 * there, leaves the hook running (it stops it only on Esc, the hook's timeout or the session's end). Returns
 * how to stop watching. Subagents' calls are not watched: 2.1.332's interactive UI runs every subagent in
 * the background and shows no terminal dialog for its prompts while the hook runs (checked with the binary:
 * the prompt reaches the phone, the agent's view shows only the pending call), so nothing can be answered
 * there first. Their calls are logged in a transcript of their own (`<session>/subagents/agent-<id>.jsonl`
 * beside the one the payload names), should a later release need it.
 */
export function watchTerminalAnswer(
  payload: ClaudeCodeHookPayload,
  startedAt: number,
  decided: (how: DecidedElsewhere) => void,
  options?: FollowOptions,
): () => void {
  if (!payload.transcript_path || payload.agent_id) return () => undefined;
  const matcher = settlementMatcher({
    toolName: payload.tool_name,
    toolInput: payload.tool_input,
    startedAt,
    promptId: payload.prompt_id,
  });
  let done = false;
  const follower = followTranscript(
    payload.transcript_path,
    (lines, catchUp) => {
      if (done) return;
      let settlement: Settlement | undefined;
      for (const line of lines) settlement ??= matcher.feed(line, catchUp);
      if (!settlement) return;
      done = true;
      follower.stop();
      decided(decidedElsewhere(payload.tool_name, settlement));
    },
    options,
  );
  void follower.check();
  return () => follower.stop();
}

/** The card's reason and, for the terminal, the response it stands for. */
export function decidedElsewhere(toolName: string, settlement: Settlement): DecidedElsewhere {
  if (settlement.source === 'hook') return { reason: ANSWERED_BY_OTHER_HOOK_REASON };
  const response = terminalResponse(toolName, settlement);
  return { reason: ANSWERED_IN_TERMINAL_REASON, terminalAnswer: response ? { response } : {} };
}

/**
 * What the terminal chose, in the phone's terms: AskUserQuestion's answers and notes as Claude Code
 * recorded them (a multi-select joined its way), a rejection ("Chat about this", "No") as a decline.
 */
function terminalResponse(toolName: string, settlement: Settlement): InteractionResponse | undefined {
  if (settlement.isError || settlement.source === 'user_reject') return { action: 'decline' };
  if (toolName !== ASK_USER_QUESTION_TOOL_NAME) return { action: 'accept' };
  const result = settlement.result;
  if (!isRecord(result) || !isRecord(result.answers)) return undefined;
  const answers: Record<string, string> = {};
  for (const [question, answer] of Object.entries(result.answers))
    if (typeof answer === 'string' && answer.trim() !== '') answers[question] = answer;
  const annotations: Record<string, { notes?: string; preview?: string }> = {};
  for (const [question, annotation] of Object.entries(isRecord(result.annotations) ? result.annotations : {})) {
    if (!isRecord(annotation)) continue;
    const kept: { notes?: string; preview?: string } = {};
    if (typeof annotation.notes === 'string' && annotation.notes.trim() !== '') kept.notes = annotation.notes;
    if (typeof annotation.preview === 'string' && annotation.preview !== '') kept.preview = annotation.preview;
    if (Object.keys(kept).length > 0) annotations[question] = kept;
  }
  return {
    action: 'accept',
    content: { answers, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) },
  };
}
