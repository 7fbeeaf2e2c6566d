'use client';
import { useI18n } from '@/hooks/use-i18n';
import { type FinishedTurnStatus } from '@/lib/contracts';
import { IconTurnEnd } from './icons/kinds';
import '@/lib/client/i18n-en-turns';
import '@/app/styles/turn-chip.css';

const WORDS = { completed: 'turn.completed', interrupted: 'turn.interrupted', failed: 'turn.failed' } as const;

/**
 * How a finished turn ended, in one word (R19.8): in a chunk of its own, so that no route's first screen carries it
 * (R13.4); the kind chip shows it once it is here.
 */
export function TurnChip({ status }: { status: FinishedTurnStatus }) {
  const { t } = useI18n();
  return (
    <span className={`chip chip--turn chip--turn-${status}`} data-testid="chip">
      <IconTurnEnd size={14} />
      {t(WORDS[status])}
    </span>
  );
}
