// How the phone's answer goes back to an ACP agent in its own format (R18.2: to-answer, R18.38).
import { type InteractionResponse } from '../../../contracts';
import { type RequestPermissionParams } from './acp-shapes';
import { rejectOption } from './to-interaction';

/** `session/request_permission`'s result: the option the card's choice names, a reject, or cancelled. */
export function permissionResult(
  params: RequestPermissionParams,
  response: InteractionResponse,
): { outcome: { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' } } {
  if (response.action === 'accept') {
    const chosen = params.options.find(
      (option) => option.optionId === response.content?.choice && option.kind.startsWith('allow'),
    );
    const allow = chosen ?? params.options.find((option) => option.kind === 'allow_once');
    if (allow) return { outcome: { outcome: 'selected', optionId: allow.optionId } };
  }
  if (response.action === 'decline') {
    const reject = rejectOption(params.options);
    if (reject) return { outcome: { outcome: 'selected', optionId: reject.optionId } };
  }
  return { outcome: { outcome: 'cancelled' } };
}

/** Whether the result lets the tool call run: the editor's dialog is then closed as running, else as failed. */
export function allows(params: RequestPermissionParams, result: ReturnType<typeof permissionResult>): boolean {
  const { outcome } = result;
  return (
    outcome.outcome === 'selected' &&
    params.options.some((option) => option.optionId === outcome.optionId && option.kind.startsWith('allow'))
  );
}

/** `elicitation/create`'s result: the form's values on accept, else decline or cancel. */
export function elicitationResult(
  mode: string,
  response: InteractionResponse,
): { action: 'accept'; content?: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' } {
  if (response.action === 'accept')
    return mode === 'form'
      ? { action: 'accept', content: { ...(response.content?.values ?? {}) } }
      : { action: 'accept' };
  return { action: response.action === 'decline' ? 'decline' : 'cancel' };
}

/** What the agent was told, for the log (never the values: a form may hold secrets). */
export function summaryOf(result: { outcome: { outcome: string; optionId?: string } } | { action: string }): string {
  if ('action' in result) return result.action;
  return result.outcome.outcome === 'selected' ? `option ${result.outcome.optionId ?? ''}` : 'cancelled';
}
