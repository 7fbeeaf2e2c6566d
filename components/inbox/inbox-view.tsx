'use client';
import Link from 'next/link';
import { useLayoutEffect } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { useRemote } from '@/hooks/use-remote';
import { machineInfo, machinePresence, machinesLive, selectShowMachines } from '@/lib/client/machine-selectors';
import { selectMachineSections } from '@/lib/client/machine-sections';
import { selectInbox, selectPendingCount } from '@/lib/client/selectors';
import { markInboxRendered } from '@/lib/client/test-hook';
import { ScreenHeader } from '../shell/screen-header';
import { IconInbox, IconLink } from '../icons';
import { MachineSection } from './machine-section';
import { MachinesSummary } from './machines-summary';
import { MorePending } from './more-pending';
import { SessionGroup } from './session-group';
import '@/lib/client/i18n-en-inbox';
import '@/app/styles/inbox.css';

export function InboxView() {
  const state = useRemote();
  const { t } = useI18n();
  const groups = selectInbox(state.host);
  // Beyond the page the host sent, more may wait (R12.7): the header counts them all.
  const pending = Math.max(selectPendingCount(state.host), state.host.hasSnapshot ? state.host.pendingTotal : 0);
  const { clockOffsetMs } = state.host;
  // More than one machine: the inbox groups by machine first (R17.3); a hub alone keeps one level.
  const showMachines = selectShowMachines(state.host);
  // Live: the host's current state, not the cached inbox nor a dropped connection (the same rule as isLive).
  const live = machinesLive(state);

  useLayoutEffect(() => {
    // Committed to the DOM: what the R13.2 benchmark and the tests wait for.
    if (state.host.hasSnapshot) markInboxRendered(pending);
  }, [state.host, pending]);

  const loading =
    !state.host.hasSnapshot &&
    !state.host.cached &&
    // Connected but the snapshot not in yet is loading too: an empty inbox would flash before the list.
    (state.status === 'connecting' ||
      state.status === 'reconnecting' ||
      state.status === 'idle' ||
      state.status === 'connected');
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
        <EmptyInbox paired={state.status !== 'unpaired'}>
          {showMachines ? (
            <MachinesSummary machines={state.host.machines} live={live} clockOffsetMs={clockOffsetMs} />
          ) : null}
        </EmptyInbox>
      ) : showMachines ? (
        <div className="inbox" data-testid="inbox.list" data-live={live ? 'true' : 'false'}>
          {selectMachineSections(state.host).map((section, index) => (
            <MachineSection
              key={section.machine.id}
              section={section}
              id={`m-${index}`}
              answers={state.answers}
              clockOffsetMs={clockOffsetMs}
              live={live}
            />
          ))}
          <MorePending host={state.host} />
        </div>
      ) : (
        // The cached inbox and the live one are the same list: the snapshot swaps rows, not the layout.
        <div className="inbox" data-testid="inbox.list" data-live={live ? 'true' : 'false'}>
          {groups.map((group, index) => (
            <SessionGroup
              key={group.key}
              group={group}
              id={`g-${index}`}
              level={2}
              answers={state.answers}
              clockOffsetMs={clockOffsetMs}
              showMachine={false}
              waitingFor={
                machinePresence(machineInfo(state.host, group.machine.id), live) === 'away'
                  ? group.machine.name
                  : undefined
              }
            />
          ))}
          <MorePending host={state.host} />
        </div>
      )}
    </>
  );
}

function EmptyInbox({ paired, children }: { paired: boolean; children?: React.ReactNode }) {
  const { t } = useI18n();
  return (
    <div className="empty" data-testid="inbox.empty">
      <IconInbox size={40} />
      <h2>{t('inbox.emptyTitle')}</h2>
      <p>{t('inbox.emptyBody')}</p>
      {children}
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
