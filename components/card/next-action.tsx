'use client';
import Link from 'next/link';
import { useI18n } from '@/hooks/use-i18n';
import { useRemote } from '@/hooks/use-remote';
import { nextPendingId, selectInbox } from '@/lib/client/selectors';

/** After a card is answered, the one obvious next step: the next waiting question, or the inbox. */
export function NextAction({ requestId, sessionId }: { requestId: string; sessionId: string }) {
  const { t } = useI18n();
  const state = useRemote();
  const next = nextPendingId(selectInbox(state.host), requestId, sessionId, state.answers);
  return (
    <div className="action-bar__buttons">
      <Link
        href={next ? `/card?id=${encodeURIComponent(next)}` : '/'}
        className="button button--primary button--grow"
        data-testid="card.next-pending"
      >
        {next ? t('card.nextQuestion') : t('card.backToInbox')}
      </Link>
    </div>
  );
}
