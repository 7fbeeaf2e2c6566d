import { addEnglish } from './i18n';

/**
 * English words of a prompt wherever one shows (inbox rows, cards, History, Sessions: not the pairing page or
 * Settings): its kind, countdown, receipt and outcome. Each component that uses one imports this file;
 * lib/client/i18n-tables.test.ts checks that (R13.4).
 */
export const enPrompts = {
  'question.chip': 'Question',
  'question.skipped': 'skipped',
  'answers.edit': 'Edit',
  'answers.notes': 'Notes',
  'countdown.continuesIn': 'Agent continues on its own in {t}',
  'countdown.continuesNow': 'Agent continues on its own now',
  'countdown.continuesAt': 'Agent continues on its own at {time}',
  'countdown.wasDueAt': 'Agent was to continue on its own at {time}',
  'countdown.waits': 'The agent waits for you',
  'receipt.applied': 'Received by the agent',
  'receipt.sending': 'Sending…',
  'receipt.queued': 'Queued — will send when connected',
  'receipt.retrying': 'Kept on this device, sent again shortly: {message}',
  'receipt.delivered': 'Answered · delivered {time}',
  'receipt.lostRace': 'Already answered {by} at {time}',
  'receipt.byOtherDevice': 'by another device',
  'receipt.byAuto': 'by auto-resolution',
  'receipt.byAgent': 'by the agent',
  'receipt.yourAnswer': 'Your answer (not sent)',
  'plan.chip': 'Plan',
  'plan.title': 'Approve the plan?',
  'permission.title': 'Allow {tool}?',
  'outcome.declined': 'Declined',
  'outcome.cancelled': 'Cancelled',
  'outcome.withdrawn': 'Withdrawn by the agent',
  'outcome.approved': 'Approved',
  'outcome.rejected': 'Rejected',
  'outcome.allowed': 'Allowed',
  'outcome.denied': 'Denied',
} as const;

addEnglish(enPrompts);
