// How the phone's answer goes back to Copilot in its own format (R18.2: to-answer; R18.32, R18.33): the
// JSON-RPC call that settles a pending permission or form, as the TUI itself would.
import { type InteractionResponse } from '../../../contracts';
import { type PermissionDecision } from './to-interaction';

export interface CopilotReply {
  method: string;
  params: Record<string, unknown>;
  /** For the log: what was answered, without the answers themselves (they may be secrets). */
  summary: string;
}

/**
 * A permission's reply: the decision of the choice taken; a denial with the person's reason as Copilot's
 * feedback (the model reads "The user rejected this tool call. User feedback: …" and carries on), or without
 * one (Copilot ends its turn). A cancel is a denial without feedback.
 */
export function permissionReply(
  sessionId: string,
  copilotId: string,
  decisions: Record<string, PermissionDecision>,
  response: InteractionResponse,
): CopilotReply {
  const method = 'session.permissions.handlePendingPermissionRequest';
  if (response.action === 'accept') {
    const choice = response.content?.choice ?? 'once';
    const decision = decisions[choice]?.kind === 'reject' ? undefined : decisions[choice];
    const result = decision ?? { kind: 'approve-once' };
    return { method, params: { sessionId, requestId: copilotId, result }, summary: result.kind };
  }
  const feedback = response.action === 'decline' ? response.message?.trim() : undefined;
  return feedback
    ? {
        method,
        params: { sessionId, requestId: copilotId, result: { kind: 'reject', feedback } },
        summary: 'rejected with a reason',
      }
    : { method, params: { sessionId, requestId: copilotId, result: { kind: 'reject' } }, summary: 'rejected' };
}

/**
 * A form's reply: the values as typed (Copilot checks nothing: every field is optional to it), a decline
 * (the model reads that the user is not available and works on) or a cancel.
 */
export function formReply(sessionId: string, copilotId: string, response: InteractionResponse): CopilotReply {
  const method = 'session.ui.handlePendingElicitation';
  if (response.action !== 'accept')
    return {
      method,
      params: { sessionId, requestId: copilotId, result: { action: response.action } },
      summary: response.action === 'decline' ? 'declined' : 'cancelled',
    };
  const content = { ...(response.content?.values ?? {}) };
  return {
    method,
    params: { sessionId, requestId: copilotId, result: { action: 'accept', content } },
    summary: `filled in ${Object.keys(content).length} field${Object.keys(content).length === 1 ? '' : 's'}`,
  };
}
