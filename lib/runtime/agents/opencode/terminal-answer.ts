// How an answer given in OpenCode itself is noticed (R18.2: terminal-answer, R18.25, R18.26): its own events
// say so. The TUI, `opencode attach`, the web app or another client answering shows up as `question.replied`,
// `question.rejected` or `permission.replied` for a request the bridge did not answer; an abort shows up
// only as the session going idle or erroring, its requests staying listed (ghosts).
import { ANSWERED_IN_TERMINAL_REASON } from '../claude-code/terminal-answer';
import { OpenCodeReplyEventSchema, OpenCodeSessionEventSchema } from './opencode-shapes';

export { ANSWERED_IN_TERMINAL_REASON };

/** A permission rejected with another of its session: OpenCode rejects every pending one of that session. */
export const REJECTED_WITH_OTHERS_REASON = 'Denied in OpenCode together with another request of this session';
/** A permission an "always" rule given for another request now covers. */
export const ALLOWED_BY_ALWAYS_REASON = 'Allowed in OpenCode by an "always" rule';
/** The session's turn ended without an answer (interrupted, an error, the session deleted). */
export const TURN_ENDED_REASON = "OpenCode stopped this session's turn: nothing waits for this answer any more";
/** OpenCode exited or closed the project: it drops every pending prompt, and asks again only if the model does. */
export const OPENCODE_CLOSED_REASON = 'OpenCode closed (or restarted): it forgets pending prompts when it stops';
/** The phone's answer reached OpenCode after the terminal's (a 404 from OpenCode). */
export const LATE_ANSWER_NOTE = 'already answered at the terminal';

/** An answer to one of OpenCode's requests, whoever gave it. */
export interface OpenCodeAnswered {
  requestID: string;
  sessionID: string | undefined;
  /** `once`, `always`, `reject` for permissions; `replied` or `rejected` for questions. */
  reply: string;
}

/** The answer an event reports, if it is one. */
export function answeredBy(event: { type: string; properties: unknown }): OpenCodeAnswered | undefined {
  if (event.type !== 'question.replied' && event.type !== 'question.rejected' && event.type !== 'permission.replied')
    return undefined;
  const parsed = OpenCodeReplyEventSchema.safeParse(event.properties);
  if (!parsed.success) return undefined;
  const reply = event.type === 'permission.replied' ? (parsed.data.reply ?? 'reject') : event.type.slice(9);
  return { requestID: parsed.data.requestID, sessionID: parsed.data.sessionID, reply };
}

/** The session whose turn an event ends: after it, that session's pending requests are ghosts. */
export function turnEndedIn(event: { type: string; properties: unknown }): string | undefined {
  if (event.type !== 'session.idle' && event.type !== 'session.error' && event.type !== 'session.deleted')
    return undefined;
  const parsed = OpenCodeSessionEventSchema.safeParse(event.properties);
  if (!parsed.success) return undefined;
  return parsed.data.sessionID ?? parsed.data.info?.id;
}

/**
 * Why a card leaves when OpenCode reports an answer the phone did not give: the terminal (or another
 * client) answered, unless the bridge itself just rejected or always-allowed another request of the same
 * session, which OpenCode carries over to this one.
 */
export function withdrawReason(answered: OpenCodeAnswered, ourLastReplyInSession: string | undefined): string {
  if (answered.reply === 'reject' && ourLastReplyInSession === 'reject') return REJECTED_WITH_OTHERS_REASON;
  if (answered.reply === 'always' && ourLastReplyInSession === 'always') return ALLOWED_BY_ALWAYS_REASON;
  return ANSWERED_IN_TERMINAL_REASON;
}
