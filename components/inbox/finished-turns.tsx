'use client';
import { memo } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type InteractionView } from '@/lib/contracts';
import { type RemoteState } from '@/lib/client/store';
import { InboxItem } from './inbox-item';
import { finishedTurnTitle } from '@/lib/client/agent-prompt-title';
import { projectLabel, shortSessionId } from '@/lib/client/format';
import { type Translate } from '@/lib/client/i18n';
import '@/lib/client/i18n-en-turn-card';
import '@/app/styles/inbox-turns.css';

/** The first line the agent said, then where: a finished turn's row names its project and session (R19.8). */
function lines(view: InteractionView, t: Translate): { title: string; detail?: string } {
  if (view.kind !== 'finished-turn') return { title: '' };
  const where = [projectLabel(view.context), t('common.session', { id: shortSessionId(view.sessionId) })]
    .filter(Boolean)
    .join(' · ');
  return { title: finishedTurnTitle(view.input) ?? t('turn.noMessage'), detail: view.input.error ?? where };
}

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
            lines={lines(view, t)}
          />
        ))}
      </ul>
    </section>
  );
});
