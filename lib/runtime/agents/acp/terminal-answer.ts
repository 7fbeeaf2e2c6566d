// How an answer in the editor (the agent's "terminal" here) is noticed and said (R18.2: terminal-answer, R18.39).
import { type InteractionResponse } from '../../../contracts';
import { type RequestPermissionParams } from './acp-shapes';

export const ANSWERED_IN_EDITOR_REASON = 'Answered in the editor';
export const AGENT_CANCELLED_REASON = 'The agent stopped waiting for this answer';
export const TURN_CANCELLED_REASON = 'The turn was cancelled in the editor';
export const AGENT_EXITED_REASON = 'The agent exited';
/** The editor's dialog, closed by the proxy once the phone answered: what it says in the tool call. */
export const ANSWERED_ON_PHONE_TEXT = 'Answered on the phone';

/** What the editor chose, as the phone's History shows it, when its reply is readable. */
export function editorPermissionResponse(
  params: RequestPermissionParams,
  result: unknown,
): InteractionResponse | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const outcome = (result as { outcome?: { outcome?: unknown; optionId?: unknown } }).outcome;
  if (outcome?.outcome === 'cancelled') return { action: 'cancel' };
  if (outcome?.outcome !== 'selected') return undefined;
  const option = params.options.find((candidate) => candidate.optionId === outcome.optionId);
  if (!option) return undefined;
  return option.kind.startsWith('allow')
    ? { action: 'accept', content: { choice: option.optionId } }
    : { action: 'decline' };
}

/**
 * The `session/update` that closes the editor's dialog for a tool call the phone settled: an editor that
 * ignores `$/cancel_request` still sees the call move on (running after an allow, failed after a reject).
 */
export function closingToolCallUpdate(sessionId: string, toolCallId: string, allowed: boolean) {
  return {
    jsonrpc: '2.0' as const,
    method: 'session/update',
    params: {
      sessionId,
      update: {
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: allowed ? 'in_progress' : 'failed',
        ...(allowed ? {} : { content: [{ type: 'content', content: { type: 'text', text: ANSWERED_ON_PHONE_TEXT } }] }),
      },
    },
  };
}
