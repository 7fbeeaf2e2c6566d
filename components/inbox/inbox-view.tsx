'use client';
import Link from 'next/link';
import { useLayoutEffect } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { useRemote } from '@/hooks/use-remote';
import { shortSessionId } from '@/lib/client/format';
import { selectInbox, selectPendingCount } from '@/lib/client/selectors';
import { markInboxRendered } from '@/lib/client/test-hook';
import { ScreenHeader } from '../shell/screen-header';
import { IconInbox, IconLink } from '../icons';
import { InboxItem } from './inbox-item';

export function InboxView() {
  const state = useRemote();
  const { t } = useI18n();
  const groups = selectInbox(state.host);
  const pending = selectPendingCount(state.host);
  const { clockOffsetMs } = state.host;

  useLayoutEffect(() => {
    // Committed to the DOM: what the R13.2 benchmark and the tests wait for.
    if (state.host.hasSnapshot) markInboxRendered(pending);
  }, [state.host, pending]);

  const loading =
    !state.host.hasSnapshot &&
    !state.host.cached &&
    (state.status === 'connecting' || state.status === 'reconnecting' || state.status === 'idle');
  return (
    <>
      <ScreenHeader
        title={t('inbox.title')}
        subtitle={
          state.host.hasSnapshot || state.host.cached
            ? pending > 0
              ? t('inbox.waiting', { n: pending })
              : t('inbox.nothingWaiting')
            : '\u00a0'
        }
      />
      {loading ? (
        <div className="skeleton-list" aria-busy="true" aria-label={t('common.loading')}>
          <div className="skeleton" />
          <div className="skeleton" />
        </div>
      ) : groups.length === 0 ? (
        <EmptyInbox paired={state.status !== 'unpaired'} />
      ) : (
        <div className="inbox" data-testid="inbox.list">
          {groups.map((group) => (
            <section
              key={group.sessionId}
              className="inbox-group"
              aria-labelledby={`g-${group.sessionId}`}
              data-testid="inbox.group"
            >
              <h2 className="inbox-group__title" id={`g-${group.sessionId}`}>
                {group.project ? <span>{group.project}</span> : null}
                <span className="inbox-group__session">
                  {t('common.session', { id: shortSessionId(group.sessionId) })}
                </span>
              </h2>
              <ul className="inbox-group__list">
                {group.items.map((view) => (
                  <InboxItem
                    key={view.requestId}
                    view={view}
                    clockOffsetMs={clockOffsetMs}
                    phase={state.answers.get(view.requestId)?.phase}
                  />
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </>
  );
}

function EmptyInbox({ paired }: { paired: boolean }) {
  const { t } = useI18n();
  return (
    <div className="empty" data-testid="inbox.empty">
      <IconInbox size={40} />
      <h2>{t('inbox.emptyTitle')}</h2>
      <p>{t('inbox.emptyBody')}</p>
      <div className="empty__setup">
        <h3>
          <IconLink size={16} /> {t('inbox.connectAgent')}
        </h3>
        <p>{t('inbox.connectAgentBody')}</p>
        {paired ? null : (
          <Link href="/pair" className="button button--primary">
            {t('pair.action')}
          </Link>
        )}
      </div>
    </div>
  );
}
