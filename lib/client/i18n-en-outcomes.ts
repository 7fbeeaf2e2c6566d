import { addEnglish } from './i18n';

/**
 * English words of how a prompt ended and what was answered (cards, History, Sessions: not the inbox, whose
 * rows all wait): receipts, outcomes, answer lists. Each component that uses one imports this file;
 * lib/client/i18n-tables.test.ts checks that (R13.4).
 */
export const enOutcomes = {
  'question.skipped': 'skipped',
  'answers.edit': 'Edit',
  'answers.notes': 'Notes',
  'receipt.applied': 'Received by the agent',
  'receipt.sending': 'Sending…',
  'receipt.retrying': 'Kept on this device, sent again shortly: {message}',
  'receipt.delivered': 'Answered · delivered {time}',
  'receipt.lostRace': 'Already answered {by} at {time}',
  'receipt.byOtherDevice': 'by another device',
  'receipt.byAuto': 'by auto-resolution',
  'receipt.byAgent': 'by the agent',
  'receipt.terminal': 'Answered in the terminal at {time}',
  'receipt.editor': 'Answered in the editor at {time}',
  'receipt.yourAnswer': 'Your answer (not sent)',
  'outcome.declined': 'Declined',
  'outcome.cancelled': 'Cancelled',
  'outcome.withdrawn': 'Withdrawn by the agent',
  'outcome.terminal': 'Answered in the terminal',
  'outcome.editor': 'Answered in the editor',
  'outcome.approved': 'Approved',
  'outcome.rejected': 'Rejected',
  'outcome.allowed': 'Allowed',
  'outcome.denied': 'Denied',
  'outcome.personOnDevice': '{name} on {device}',
  'outcome.answeredBy': 'Answered by {who} at {time}',
  'outcome.partlyBy': 'Answered {n} of {m} by {who} at {time}',
  'outcome.skippedBy': 'Skipped by {who} at {time}',
  'outcome.declinedBy': 'Declined by {who} at {time}',
  'outcome.cancelledBy': 'Cancelled by {who} at {time}',
  'outcome.approvedBy': 'Approved by {who} at {time}',
  'outcome.rejectedBy': 'Rejected by {who} at {time}',
  'outcome.allowedBy': 'Allowed by {who} at {time}',
  'outcome.deniedBy': 'Denied by {who} at {time}',
} as const;

addEnglish(enOutcomes);
