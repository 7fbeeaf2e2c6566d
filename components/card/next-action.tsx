'use client';
import Link from 'next/link';
import { useRemote } from '@/hooks/use-remote';
import { type Translate } from '@/lib/client/i18n';
import { nextPendingId, selectInbox } from '@/lib/client/selectors';

/** After a card is answered, the one obvious next step: the next waiting question, or the inbox. */
export function NextAction({ requestId, sessionId, t }: { requestId: string; sessionId: string; t: Translate }) {
  const state = useRemote();
  const next = nextPendingId(selectInbox(state.host), requestId, sessionId, state.answers);
  return (
    <div className="action-bar__buttons">
      <Link
        href={next ? `/card?id=${encodeURIComponent(next)}` : '/'}
        className="button button--primary button--grow"
        data-testid="card.next-pending"
      >
        {next ? t('next_question') : t('back_to_inbox')}
      </Link>
    </div>
  );
}
