import { addEnglish } from './i18n';

/**
 * English words of a finished turn (R19) wherever one shows: its inbox row and section, its card, its receipt and its
 * History line. Each component that uses one imports this file; lib/client/i18n-tables.test.ts checks that (R13.4).
 */
export const enTurns = {
  'turn.chip': 'Finished',
  'turn.section': 'Finished turns',
  'turn.count': '{n} finished',
  'turn.completed': 'Finished',
  'turn.interrupted': 'Interrupted',
  'turn.failed': 'Failed',
  'turn.failedWith': 'Failed ({reason})',
  'turn.noMessage': 'The agent said nothing at the end of this turn.',
  'turn.clipped': 'The message was {n} characters; the first {max} are shown.',
  'turn.showAll': 'Show all',
  'turn.showLess': 'Show less',
  'turn.replyLabel': 'Reply to {agent}',
  'turn.replyHint': 'Your reply becomes its next prompt, as if typed in its terminal.',
  'turn.send': 'Send',
  'turn.dismiss': 'Dismiss',
  'turn.editorOwns': '{agent} runs in an editor, which owns its prompt: reply there.',
  'turn.sent': 'Sent to {agent}',
  'turn.sending': 'Sending to {agent}…',
  'turn.busy': 'The agent is already working on something else',
  'turn.busyHint': 'Your reply was not sent. Copy it to send later.',
  'turn.copy': 'Copy',
  'turn.copied': 'Copied',
  'turn.dismissed': 'Dismissed',
  'turn.replied': 'Replied',
  'turn.notSent': 'Reply not sent',
  'turn.replaced': 'A newer turn finished',
  'turn.yourReply': 'Your reply',
  'turn.tooLong': 'At most {max} characters ({n} now).',
} as const;

addEnglish(enTurns);
