import { addEnglish } from './i18n';

/**
 * English words of a finished turn's card and receipts (R19.10, R19.11) and of the inbox's Finished turns section
 * (R19.8): they ship with those chunks only.
 */
export const enTurnCard = {
  'turn.section': 'Finished turns',
  'turn.dismissed': 'Dismissed',
  'turn.noMessage': 'The agent said nothing at the end of this turn.',
  'turn.failedWith': 'Failed ({reason})',
  'turn.clipped': 'The message was {n} characters; the first {max} are shown.',
  'turn.showAll': 'Show all',
  'turn.showLess': 'Show less',
  'turn.replyLabel': 'Reply to {agent}',
  'turn.replyHint': 'Your reply becomes its next prompt, as if typed in its terminal.',
  'turn.send': 'Send',
  'turn.dismiss': 'Dismiss',
  'turn.editorOwns': '{agent} runs in an editor, which owns its prompt: reply there.',
  'turn.notAway':
    '{agent} did not wait for a reply: you were at your desk. To reply from here next time, switch on “I’m away from my desk” in Settings.',
  'turn.switchedOff':
    'Replies to {agent} are switched off on its machine (askaway hook install --no-reply): reply in its terminal.',
  'turn.turnFailed': '{agent} cannot go on from a failed turn here: send the next prompt in its terminal.',
  'turn.replyLimit':
    '{agent} takes only so many replies in a row from here before it ends the turn itself: send the next prompt in its terminal.',
  'turn.sent': 'Sent to {agent}',
  'turn.sending': 'Sending to {agent}…',
  'turn.busy': 'The agent is already working on something else',
  'turn.busyHint': 'Your reply was not sent. Copy it to send later.',
  'turn.copy': 'Copy',
  'turn.copied': 'Copied',
  'turn.replaced': 'A newer turn finished',
  'turn.yourReply': 'Your reply',
  'turn.tooLong': 'At most {max} characters ({n} now).',
} as const;

addEnglish(enTurnCard);
