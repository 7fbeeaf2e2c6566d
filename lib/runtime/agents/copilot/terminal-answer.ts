// How an answer given in Copilot itself is noticed (R18.2: terminal-answer; R18.34): every client of the
// `--ui-server` port gets `permission.completed` / `elicitation.completed` once a prompt is settled, whoever
// settled it. Arriving for a prompt the bridge did not answer, it means the TUI (or another client) came
// first; a phone answer after that gets `{success: false}`.
import { type InteractionResponse, type TerminalAnswer } from '../../../contracts';
import { ANSWERED_IN_TERMINAL_REASON } from '../claude-code/terminal-answer';

export { ANSWERED_IN_TERMINAL_REASON };

/** The turn was interrupted (Esc in the TUI) or the session went away: nothing waits for the answer. */
export const TURN_ENDED_REASON = 'Copilot stopped this turn: nothing waits for this answer any more';
/** Copilot's own rules or a hook settled it (no person answered). */
export const SETTLED_BY_RULES_REASON = "Settled by Copilot's own permission rules";
/** The TUI exited (or its port closed): its pending prompts went with it. */
export const COPILOT_CLOSED_REASON = 'Copilot closed: it forgets pending prompts when it exits';
/** The phone's answer reached Copilot after the terminal's (`{success: false}`). */
export const LATE_ANSWER_NOTE = 'already answered at the terminal';

/** How a `permission.completed` the bridge did not cause takes the card away, and what was chosen. */
export function permissionSettled(
  result: { kind: string; feedback?: string } | undefined,
  choiceIds: readonly string[],
): { reason: string; terminalAnswer?: TerminalAnswer } {
  const kind = result?.kind ?? '';
  if (kind === 'approved' || kind === 'approved-for-session' || kind === 'approved-for-location') {
    const choice = kind === 'approved-for-session' && choiceIds.includes('session') ? 'session' : 'once';
    return {
      reason: ANSWERED_IN_TERMINAL_REASON,
      terminalAnswer: { response: { action: 'accept', content: { choice } } },
    };
  }
  if (kind === 'denied-interactively-by-user') {
    const message = result?.feedback?.trim();
    const response: InteractionResponse = message
      ? { action: 'decline', message: message.slice(0, 2_000) }
      : { action: 'decline' };
    return { reason: ANSWERED_IN_TERMINAL_REASON, terminalAnswer: { response } };
  }
  if (kind === 'cancelled' || kind === 'user-not-available') return { reason: TURN_ENDED_REASON };
  if (kind.startsWith('denied')) return { reason: SETTLED_BY_RULES_REASON };
  return { reason: ANSWERED_IN_TERMINAL_REASON, terminalAnswer: {} };
}

/** How an `elicitation.completed` the bridge did not cause takes the card away, with the terminal's values. */
export function formSettled(completed: { action?: string; content?: Record<string, unknown> }): {
  reason: string;
  terminalAnswer: TerminalAnswer;
} {
  if (completed.action === 'decline')
    return { reason: ANSWERED_IN_TERMINAL_REASON, terminalAnswer: { response: { action: 'decline' } } };
  if (completed.action === 'cancel')
    return { reason: ANSWERED_IN_TERMINAL_REASON, terminalAnswer: { response: { action: 'cancel' } } };
  if (completed.action !== 'accept') return { reason: ANSWERED_IN_TERMINAL_REASON, terminalAnswer: {} };
  const values: Record<string, string | number | boolean | string[]> = {};
  for (const [name, value] of Object.entries(completed.content ?? {})) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') values[name] = value;
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) values[name] = value;
  }
  return {
    reason: ANSWERED_IN_TERMINAL_REASON,
    terminalAnswer: { response: { action: 'accept', content: { values } } },
  };
}
