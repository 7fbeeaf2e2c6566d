import { addEnglish } from './i18n';

/**
 * English strings only the history and sessions screens show: they ship with those screens, not with the
 * other routes' first screens (R13.4). Each component that uses one imports this file, as it imports its
 * styles; lib/client/i18n-tables.test.ts checks that.
 */
export const enScreens = {
  'sessions.title': 'Sessions',
  'sessions.empty': 'No sessions yet. Sessions appear when an agent asks something.',
  'sessions.pendingCount': '{n} pending',
  'sessions.resolvedCount': '{n} resolved',
  'sessions.lastQuestion': 'Last: {q}',
  'sessions.statusPending': 'Waiting',
  'sessions.statusResolved': 'Resolved',

  'history.title': 'History',
  'history.empty': 'Answered and withdrawn questions appear here.',
  'history.filterSession': 'Session',
  'history.allSessions': 'All sessions',
  'history.reason': 'Reason: {r}',

  'outcome.answered': 'Answered',
  'outcome.partly': 'Partly answered ({n} of {m})',
  'outcome.skipped': 'Skipped',
  'outcome.auto': 'Auto-resolved',
  'outcome.otherDevice': 'Answered on another device',
} as const;

addEnglish(enScreens);
