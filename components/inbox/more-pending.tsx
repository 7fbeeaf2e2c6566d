'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { loadMorePending } from '@/lib/client/connection-loader';
import { type HostView } from '@/lib/client/host-view';
import { selectPendingCount } from '@/lib/client/pending-count';
import '@/lib/client/i18n-en-more-pending';
import '@/lib/client/i18n-en-prompts';
import '@/app/styles/more-pending.css';

/**
 * The waiting interactions beyond the page the host sent first (R12.7): how many, and a button that
 * loads the next page. Nothing at all while everything is loaded, which is every inbox but a flooded one.
 */
export function MorePending({ host }: { host: HostView }) {
  const { t } = useI18n();
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const beyond = host.pendingTotal - selectPendingCount(host);
  if (!host.hasSnapshot || host.pendingCursor === null || beyond <= 0) return null;
  const load = () => {
    setState('loading');
    void loadMorePending().then((ok) => setState(ok ? 'idle' : 'failed'));
  };
  return (
    <div className="more-pending" data-testid="inbox.more">
      <p className="more-pending__count">{t('inbox.moreWaiting', { n: beyond })}</p>
      {state === 'failed' ? (
        <p className="state state--danger" role="alert">
          {t('inbox.moreFailed')}
        </p>
      ) : null}
      <button
        type="button"
        className="button"
        data-testid="inbox.more-load"
        disabled={state === 'loading'}
        aria-busy={state === 'loading'}
        onClick={load}
      >
        {state === 'loading' ? t('common.loading') : t('inbox.moreLoad')}
      </button>
    </div>
  );
}
