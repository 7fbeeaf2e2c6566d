import { addEnglish } from './i18n';

/**
 * English strings only History shows, and the filters it shares with Sessions: they ship with those screens,
 * not with the other routes' first screens (R13.4; Sessions' own are ./i18n-en-sessions.ts). Each component that uses one imports this file, as it imports its
 * styles; lib/client/i18n-tables.test.ts checks that.
 */
export const enScreens = {
  // Sessions and History by machine (R17.3) and by agent (R18.1).
  'machine.filter': 'Machine',
  'machine.allMachines': 'All machines',
  'agent.filter': 'Agent',
  'agent.allAgents': 'All agents',

  'history.title': 'History',
  'history.empty': 'Answered and withdrawn questions appear here.',
  'history.filterSession': 'Session',
  'history.allSessions': 'All sessions',
  'history.reason': 'Reason: {r}',
  'history.show': 'Show',
  'history.showQuestions': 'Questions',
  'history.showAudit': 'Audit',

  'outcome.answered': 'Answered',
  'outcome.partly': 'Partly answered ({n} of {m})',
  'outcome.skipped': 'Skipped',
  'outcome.auto': 'Auto-resolved',
  'outcome.otherDevice': 'Answered on another device',
} as const;

addEnglish(enScreens);
