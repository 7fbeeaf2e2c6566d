// How an answer at Codex's own terminal is noticed (R18.2: terminal-answer; R18.13).
import { ANSWERED_IN_TERMINAL_REASON } from '../claude-code/terminal-answer';
import { CODEX_NON_BLOCKING_TIMEOUT_MS } from './to-interaction';

export { ANSWERED_IN_TERMINAL_REASON };

/** Shown on the phone when Codex's own timer resolved a Default-mode question unanswered. */
export const CODEX_WENT_ON_REASON = 'Codex went on without an answer (its own 2-minute limit)';
/** Shown when the daemon that asked is gone: Codex lost the prompt (the model reads "aborted"). */
export const DAEMON_GONE_REASON = "Codex's background server stopped: this prompt was interrupted";

/**
 * Codex tells every joined client `serverRequest/resolved {threadId, requestId}` once a server request is
 * settled, whoever settled it, and drops any later answer silently. Arriving for a request the bridge has
 * not answered, it means the terminal (or another client, or Codex's own timer) came first: the card
 * leaves the phone with this reason. `waitedMs` is how long the bridge saw the request wait.
 */
export function resolvedElsewhereReason(prompt: { nonBlocking: boolean }, waitedMs: number): string {
  // Codex's 2-minute timer is the only thing that settles a question that late without an answer;
  // allow for the time the request waited before the bridge saw it.
  if (prompt.nonBlocking && waitedMs >= CODEX_NON_BLOCKING_TIMEOUT_MS - 15_000) return CODEX_WENT_ON_REASON;
  return ANSWERED_IN_TERMINAL_REASON;
}
