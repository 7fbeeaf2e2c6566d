import { addEnglish } from './i18n';

/**
 * English strings only the card shows (questions, plans, permissions, previews): they ship with the
 * card's first screen, not with every route's (R13.4). Each component that uses one imports this file,
 * as it imports its styles; lib/client/i18n-tables.test.ts checks that.
 */
export const enCard = {
  'question.other': 'Other…',
  'question.otherPlaceholder': 'Type your answer',
  'question.secretAnswer': 'Type the secret (hidden as you type)',
  'question.otherOwn': 'Type my own answer…',
  'question.typedAnswer': 'Your answer',
  'question.numberAnswer': 'Your number',
  'question.numberRange': 'Between {min} and {max}',
  'question.numberSuggested': 'Suggested: {value}',
  'question.numberInvalid': 'Enter a number, such as 12 or 3.5.',
  'question.numberOutOfRange': 'Enter a number between {min} and {max}.',
  'question.numberLess': 'Less',
  'question.numberMore': 'More',
  'question.headerFull': 'Show the whole header',
  'question.headerShort': 'Shorten the header',
  'question.addNote': 'Add a note',
  'question.noteLabel': 'Note for the agent',
  'question.skip': 'Skip this question',
  'question.unskip': 'Answer this question',
  'question.recommended': 'Recommended',

  'card.skipAll': 'Skip all',
  'card.openInTerminal': 'Also open in the terminal on {machine}',
  'card.openInTerminalHint': 'The first answer wins: answering here closes it there, even while someone types in it.',
  'card.decline': 'Decline…',
  'card.declineTitle': 'Decline this question?',
  'card.declineReason': 'Reason (optional)',
  'card.declineHint': 'The agent sees that you declined, with your reason.',
  'card.declineConfirm': 'Decline',
  'card.skipAllTitle': 'Skip all questions?',
  'card.skipAllHint': 'The agent continues on its best judgment. Skipping is not a rejection.',
  'card.review': 'Review',
  'card.submit': 'Submit',
  'card.next': 'Next',
  'card.back': 'Back',
  'card.step': '{i} of {n}',
  'card.moreActions': 'More actions',
  'card.agentSaid': 'Agent said',
  'card.showMore': 'Show more',
  'card.showLess': 'Show less',
  'card.notFoundTitle': 'Not found',
  'card.notFoundBody': 'This question is no longer here. It may have been answered elsewhere.',
  'card.backToInbox': 'Back to inbox',
  'card.loadFailedTitle': 'This card could not load',
  'card.loadFailedBody': 'Its part of the app did not arrive. Check the connection to the host and try again.',
  'card.loadAgain': 'Try again',
  'card.nextQuestion': 'Next question',

  'preview.title': 'Preview',
  'preview.of': 'Preview of “{label}”',
  'preview.none': 'This option has no preview.',

  'plan.missing':
    'Claude Code did not include the plan text. You can still approve or reject it; the terminal shows the plan.',
  'plan.fileUnreadable':
    'Claude Code did not include the plan text, and its plan file could not be read. You can still approve or reject it; the terminal shows the plan.',
  'plan.file': 'Plan file:',
  'plan.approve': 'Approve',
  'plan.reject': 'Reject',
  'plan.rejectFeedback': 'What should change? (optional)',
  'plan.rejectTitle': 'Reject with feedback',

  'permission.allow': 'Allow',
  'permission.deny': 'Deny',
  'permission.denyReason': 'Reason (optional)',
  'permission.command': 'Command',
  'permission.file': 'File',
  'permission.input': 'Input',
  'permission.showWhole': 'Show the whole input ({n} characters)',

  'machine.waitingForHint': 'You can answer now: your answer is kept on the hub and delivered when {name} is back.',

  'card.handOver': 'Hand over…',
  'card.handedOverTo': 'Handed to {name}.',
} as const;

addEnglish(enCard);
