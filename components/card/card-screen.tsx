'use client';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { lazy, Suspense } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { usePairing } from '@/hooks/use-pairing';
import { useRemote } from '@/hooks/use-remote';
import { QuestionCard } from './question-card';
import '@/lib/client/i18n-en-card';
import '@/app/styles/card.css';

// Plan approvals and permission prompts load their card when one is opened: a question's card, the
// common case, does not carry it in its first screen (R13.4).
const DecisionCard = lazy(() => import('./decision-card').then((module) => ({ default: module.DecisionCard })));

function CardSkeleton({ label }: { label: string }) {
  return (
    <div className="skeleton-list" aria-busy="true" aria-label={label}>
      <div className="skeleton" />
    </div>
  );
}

/** `/card?id=<requestId>` (a query param: the app is a static export). */
export function CardScreen() {
  const params = useSearchParams();
  const id = params.get('id') ?? '';
  const state = useRemote();
  const pairing = usePairing();
  const { t } = useI18n();
  const view = state.host.interactions.get(id);
  const local = state.answers.get(id);
  const online = state.status === 'connected';
  const myDeviceId = pairing?.deviceId ?? null;

  if (!view) {
    const waiting =
      !state.host.hasSnapshot && !state.host.cached && state.status !== 'unpaired' && state.status !== 'refused';
    return (
      <div className="empty" data-testid={waiting ? 'card.loading' : 'card.not-found'}>
        {waiting ? (
          <CardSkeleton label={t('common.loading')} />
        ) : (
          <>
            <h1 className="empty__title">{t('card.notFoundTitle')}</h1>
            <p>{t('card.notFoundBody')}</p>
            <Link href="/" className="button button--primary">
              {t('card.backToInbox')}
            </Link>
          </>
        )}
      </div>
    );
  }
  if (view.kind === 'question') {
    return (
      <QuestionCard
        key={view.requestId}
        view={view}
        local={local}
        myDeviceId={myDeviceId}
        online={online}
        clockOffsetMs={state.host.clockOffsetMs}
      />
    );
  }
  if (view.kind === 'approval' || view.kind === 'form') {
    return (
      <div className="empty" data-testid="card.unsupported">
        <p>{t('card.notFoundBody')}</p>
      </div>
    );
  }
  return (
    <Suspense
      fallback={
        <div className="empty" data-testid="card.loading">
          <CardSkeleton label={t('common.loading')} />
        </div>
      }
    >
      <DecisionCard
        key={view.requestId}
        view={view}
        local={local}
        myDeviceId={myDeviceId}
        online={online}
        clockOffsetMs={state.host.clockOffsetMs}
      />
    </Suspense>
  );
}
