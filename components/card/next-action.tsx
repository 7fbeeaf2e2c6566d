'use client';
import { Link } from '../link';
import { useI18n } from '@/hooks/use-i18n';
import { useRemote } from '@/hooks/use-remote';
import { type InteractionView } from '@/lib/contracts';
import { nextPendingId, selectInbox } from '@/lib/client/selectors';
import { sessionKey } from '@/lib/client/view-keys';
import '@/lib/client/i18n-en-card';

/** After a card is answered, the one obvious next step: the next waiting question, or the inbox. */
export function NextAction({ view }: { view: InteractionView }) {
  const { t } = useI18n();
  const state = useRemote();
  const next = nextPendingId(selectInbox(state.host), view.requestId, sessionKey(view), state.answers);
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
