import { addEnglish } from './i18n';

/**
 * English words of a finished turn's chip (R19.8), with its chunk (components/turn-chip.tsx). The card's and the
 * inbox section's are in ./i18n-en-turn-card.ts, loaded with them. Each component that uses one imports this file;
 * lib/client/i18n-tables.test.ts checks that (R13.4).
 */
export const enTurns = {
  'turn.completed': 'Finished',
  'turn.interrupted': 'Interrupted',
  'turn.failed': 'Failed',
} as const;

addEnglish(enTurns);
