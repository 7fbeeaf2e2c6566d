import { addEnglish } from './i18n';

/** English strings only Sessions shows (R13.4); lib/client/i18n-tables.test.ts checks who imports it. */
export const enSessions = {
  'sessions.title': 'Sessions',
  'sessions.empty': 'No sessions yet. Sessions appear when an agent asks something.',
  'sessions.pendingCount': '{n} pending',
  'sessions.resolvedCount': '{n} resolved',
  'sessions.lastQuestion': 'Last: {q}',
  'sessions.statusPending': 'Waiting',
  'sessions.statusResolved': 'Resolved',
} as const;

addEnglish(enSessions);
