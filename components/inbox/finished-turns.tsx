'use client';
import { memo } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type InteractionView } from '@/lib/contracts';
import { type RemoteState } from '@/lib/client/store';
import { InboxItem } from './inbox-item';
import '@/lib/client/i18n-en-turns';

interface Props {
  /** Pending finished turns, newest first (selectFinishedTurns). */
  turns: readonly InteractionView[];
  answers: RemoteState['answers'];
  clockOffsetMs: number;
  showMachine: boolean;
  showAgent: boolean;
}

/**
 * The inbox's "Finished turns" (R19.8): after every prompt that blocks an agent mid-work, since a finished turn is
 * quieter than a question (the agent is idle, nothing breaks while it waits), newest first, one per session.
 */
export const FinishedTurns = memo(function FinishedTurns({
  turns,
  answers,
  clockOffsetMs,
  showMachine,
  showAgent,
}: Props) {
  const { t } = useI18n();
  return (
    <section className="inbox inbox-turns" aria-labelledby="inbox-turns" data-testid="inbox.finished-turns">
      <h2 className="inbox-turns__title" id="inbox-turns">
        {t('turn.section')}
      </h2>
      <ul className="inbox-group__list">
        {turns.map((view) => (
          <InboxItem
            key={view.requestId}
            view={view}
            clockOffsetMs={clockOffsetMs}
            phase={answers.get(view.requestId)?.phase}
            machine={showMachine ? view.machine : undefined}
            showAgent={showAgent}
          />
        ))}
      </ul>
    </section>
  );
});
