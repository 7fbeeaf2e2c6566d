// How an OpenCode turn ended and what it said last, from what OpenCode reports (R19.30, R19.33).
import { FINISHED_TURN_ERROR_MAX, type FinishedTurnStatus } from '../../../contracts';
import { type OpenCodeError, type OpenCodeMessageWithParts } from './opencode-shapes';

/** OpenCode's error for a turn stopped by Esc or an abort over HTTP. */
export const ABORTED_ERROR = 'MessageAbortedError';

/** How the turn ended: an abort is an interruption, any other error a failure with OpenCode's message as the reason. */
export function turnEnd(error: OpenCodeError | undefined): { status: FinishedTurnStatus; error?: string } {
  if (!error) return { status: 'completed' };
  if (error.name === ABORTED_ERROR) return { status: 'interrupted' };
  const reason = error.data?.message?.trim();
  return { status: 'failed', error: reason ? reason : error.name };
}

/**
 * Only what a card reads of an error, as a string of its own (R12.19): an API error carries the whole answer it got,
 * and the turn's state keeps its error until the card is shown.
 */
export function keptError(error: OpenCodeError): OpenCodeError {
  const message = error.data?.message;
  return {
    name: error.name.slice(0, 200),
    ...(message === undefined ? {} : { data: { message: message.slice(0, FINISHED_TURN_ERROR_MAX) } }),
  };
}

/** What the model said in one assistant message: its text parts, without those OpenCode added itself. */
export function saidIn(message: OpenCodeMessageWithParts): string {
  return message.parts
    .filter((part) => part.type === 'text' && part.synthetic !== true && part.ignored !== true)
    .map((part) => part.text ?? '')
    .filter((text) => text.trim() !== '')
    .join('\n\n');
}

/**
 * Whether message id `a` was made after `b`. OpenCode's message ids are ascending (`msg_` and a time-ordered hex
 * prefix), so their order is their age: the old prompt OpenCode sends again after a turn is not newer than its reply.
 */
export function isNewer(a: string, b: string): boolean {
  return a > b;
}
