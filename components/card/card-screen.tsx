'use client';
import { useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { usePairing } from '@/hooks/use-pairing';
import { useRemote } from '@/hooks/use-remote';
import { type InteractionView } from '@/lib/contracts';
import { Link } from '../link';
import { loadCardKind, type CardProps } from './card-kinds';
import { useCardKind, type CardKindState } from './use-card-kind';
import '@/lib/client/i18n-en-card';

/** Longer than a card's chunk takes from the service worker's cache: a skeleton shows only when the wait is real. */
const SKELETON_AFTER_MS = 300;

function CardSkeleton({ label }: { label: string }) {
  return (
    <div className="skeleton-list" aria-busy="true" aria-label={label}>
      <div className="skeleton" />
    </div>
  );
}

/** Nothing at first (the card usually follows within a frame or two), the skeleton once the wait is real. */
function CardPending() {
  const { t } = useI18n();
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLate(true), SKELETON_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return <div data-testid="card.loading">{late ? <CardSkeleton label={t('common.loading')} /> : null}</div>;
}

/** This kind's card, once its chunk is here (./card-kinds.ts). */
function KindCard({ cards, props }: { cards: CardKindState['cards']; props: CardProps }) {
  const { view } = props;
  switch (view.kind) {
    case 'question': {
      const Card = cards.question;
      return Card ? <Card {...props} view={view} /> : null;
    }
    case 'plan-approval': {
      const Card = cards['plan-approval'];
      return Card ? <Card {...props} view={view} /> : null;
    }
    case 'permission': {
      const Card = cards.permission;
      return Card ? <Card {...props} view={view} /> : null;
    }
    case 'approval': {
      const Card = cards.approval;
      return Card ? <Card {...props} view={view} /> : null;
    }
    case 'form': {
      const Card = cards.form;
      return Card ? <Card {...props} view={view} /> : null;
    }
    case 'finished-turn': {
      const Card = cards['finished-turn'];
      return Card ? <Card {...props} view={view} /> : null;
    }
    default: {
      const unknownKind: never = view;
      return unknownKind;
    }
  }
}

/** `/card?id=<requestId>` (a query param: the app is a static export). */
export function CardScreen() {
  const params = useSearchParams();
  const id = params.get('id') ?? '';
  const state = useRemote();
  const pairing = usePairing();
  const { t } = useI18n();
  const view: InteractionView | undefined = state.host.interactions.get(id);
  const kind = useCardKind(view?.kind);

  if (!view) {
    const waiting =
      !state.host.hasSnapshot && !state.host.cached && state.status !== 'unpaired' && state.status !== 'refused';
    // A block, not .empty: that one centres its children, and a skeleton has no width of its own.
    if (waiting)
      return (
        <div data-testid="card.loading">
          <CardSkeleton label={t('common.loading')} />
        </div>
      );
    return (
      <div className="empty" data-testid="card.not-found">
        <h1 className="empty__title">{t('card.notFoundTitle')}</h1>
        <p>{t('card.notFoundBody')}</p>
        <Link href="/" className="button button--primary">
          {t('card.backToInbox')}
        </Link>
      </div>
    );
  }
  if (kind.failed) {
    return (
      <div className="empty" data-testid="card.load-failed">
        <h1 className="empty__title">{t('card.loadFailedTitle')}</h1>
        <p>{t('card.loadFailedBody')}</p>
        <button type="button" className="button button--primary" onClick={() => void loadCardKind(view.kind)}>
          {t('card.loadAgain')}
        </button>
      </div>
    );
  }
  const props: CardProps = {
    view,
    local: state.answers.get(id),
    myDeviceId: pairing?.deviceId ?? null,
    online: state.status === 'connected',
    clockOffsetMs: state.host.clockOffsetMs,
  };
  return kind.cards[view.kind] ? <KindCard key={view.requestId} cards={kind.cards} props={props} /> : <CardPending />;
}
