'use client';
import { Link } from '../link';
import { useEffect, useLayoutEffect, useMemo } from 'react';
import { useHubSignIn } from '@/hooks/use-hub-sign-in';
import { useHydrated } from '@/hooks/use-hydrated';
import { useI18n } from '@/hooks/use-i18n';
import { lazyPart } from '@/hooks/use-lazy-part';
import { usePairing } from '@/hooks/use-pairing';
import { useRemote } from '@/hooks/use-remote';
import { useTeam } from '@/hooks/use-team';
import { selectShowAgents } from '@/lib/client/agent-selectors';
import { selectShowMachines } from '@/lib/client/machine-selectors';
import { machineInfo, machinePresence, machinesLive } from '@/lib/client/machine-presence';
import { longInbox } from '@/lib/client/long-inbox';
import { selectPendingCount } from '@/lib/client/pending-count';
import { selectFinishedTurns, selectInbox } from '@/lib/client/selectors';
import { markInboxRendered } from '@/lib/client/test-hook';
import { type HubSignIn } from '@/lib/contracts/hub-api';
import { loadCardKind } from '../card/card-kinds';
import { ScreenHeader } from '../shell/screen-header';
import { IconLink } from '../icons/navigation';
import { IconInbox } from '../icons/shell';
import { SessionGroup } from './session-group';
import '@/lib/client/i18n-en-inbox';
import '@/app/styles/inbox.css';

// More than one machine (R17.3) is rarer: its grouping loads when the inbox first sees a second machine.
const machineList = lazyPart(() => import('./machine-inbox').then((module) => module.MachineList));
const machinesSummary = lazyPart(() => import('./machine-inbox').then((module) => module.MachinesSummary));
// Finished turns (R19.8) come in their own section, below what waits: its code loads when there is one.
const finishedTurns = lazyPart(() => import('./finished-turns').then((module) => module.FinishedTurns));
// Only a flooded inbox has more waiting than the host's first page (R12.7).
const morePending = lazyPart(() => import('./more-pending').then((module) => module.MorePending));
// Only a team hub's unpaired screen offers a sign-in (R21.32): its code comes once the hub has said it signs people in.
const signInOffer = lazyPart(() => import('../pair/sign-in-offer').then((module) => module.SignInOffer));

export function InboxView() {
  const state = useRemote();
  const { t } = useI18n();
  const groups = selectInbox(state.host);
  const turns = selectFinishedTurns(state.host);
  // Beyond the page the host sent, more may wait (R12.7): the header counts them all.
  const pending = Math.max(selectPendingCount(state.host), state.host.hasSnapshot ? state.host.pendingTotal : 0);
  // "Waiting" keeps meaning an agent is blocked mid-work: finished turns are counted apart (R19.8).
  const finished = turns.length;
  const waiting = pending - finished;
  const { clockOffsetMs } = state.host;
  // More than one machine: the inbox groups by machine first (R17.3); a hub alone keeps one level.
  const showMachines = selectShowMachines(state.host);
  const showAgents = selectShowAgents(state.host);
  // Live: the host's current state, not the cached inbox nor a dropped connection (the same rule as isLive).
  const live = machinesLive(state);
  const hydrated = useHydrated();
  const signIn = useHubSignIn(hydrated && state.status === 'unpaired');
  // A team hub's rows (R21.76): "Handed to you by Ana" needs to know who "you" are, and a card opened from here finds
  // its Hand over… ready. Asked only when a row is a team hub's (a personal hub's never are).
  const pairing = usePairing();
  const teamHub = groups.some((group) => group.items.some((view) => view.askedFor !== undefined));
  useTeam(teamHub ? pairing : null, state.status === 'connected');

  // Rows grouped by machine are MachineList's to mark: they are in the DOM once its chunk is.
  const byMachine = showMachines && groups.length > 0;
  useLayoutEffect(() => {
    // Committed to the DOM: what the R13.2 benchmark and the tests wait for.
    if (state.host.hasSnapshot && !byMachine) markInboxRendered(pending);
  }, [state.host, pending, byMachine]);

  // The cards of the kinds waiting here, fetched while nothing else runs: a tap opens one without a wait.
  const kinds = useMemo(
    () =>
      new Set([...groups.flatMap((group) => group.items.map((view) => view.kind)), ...turns.map((view) => view.kind)]),
    [groups, turns],
  );
  useEffect(() => {
    if (!live || kinds.size === 0) return;
    const load = () => {
      for (const kind of kinds) void loadCardKind(kind);
    };
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(load, 1_000);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(load, { timeout: 5_000 });
    return () => cancelIdleCallback(handle);
  }, [live, kinds]);

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
              ? [
                  ...(waiting > 0 ? [t('inbox.waiting', { n: waiting })] : []),
                  ...(finished > 0 ? [t('inbox.finished', { n: finished })] : []),
                ].join(' · ')
              : t('inbox.nothingWaiting')
            : '\u00a0'
        }
      />
      {/* While hydrating, both what a paired device and an unpaired one see first, each where it stays (R9.14). */}
      {!hydrated || loading ? <InboxSkeleton className={hydrated ? undefined : 'boot-paired'} /> : null}
      {!hydrated || (!loading && groups.length === 0 && turns.length === 0) ? (
        <EmptyInbox
          paired={hydrated && state.status !== 'unpaired'}
          signIn={signIn}
          className={hydrated ? undefined : 'boot-unpaired'}
        >
          {hydrated && showMachines ? (
            <machinesSummary.Slot machines={state.host.machines} live={live} clockOffsetMs={clockOffsetMs} />
          ) : null}
        </EmptyInbox>
      ) : null}
      {!hydrated || loading || groups.length === 0 ? null : showMachines ? (
        <machineList.Slot state={state} live={live} />
      ) : (
        // The cached inbox and the live one are the same list: the snapshot swaps rows, not the layout.
        <div
          className="inbox"
          data-testid="inbox.list"
          data-live={live ? 'true' : 'false'}
          data-long={longInbox(groups)}
        >
          {groups.map((group, index) => (
            <SessionGroup
              key={group.key}
              group={group}
              id={`g-${index}`}
              level={2}
              answers={state.answers}
              clockOffsetMs={clockOffsetMs}
              showMachine={false}
              showAgent={showAgents}
              waitingFor={
                machinePresence(machineInfo(state.host, group.machine.id), live) === 'away'
                  ? group.machine.name
                  : undefined
              }
            />
          ))}
        </div>
      )}
      {hydrated && !loading && turns.length > 0 ? (
        <finishedTurns.Slot
          turns={turns}
          answers={state.answers}
          clockOffsetMs={clockOffsetMs}
          showMachine={showMachines}
          showAgent={showAgents}
        />
      ) : null}
      {hydrated && !loading && groups.length + turns.length > 0 && state.host.pendingCursor !== null ? (
        <morePending.Slot host={state.host} />
      ) : null}
    </>
  );
}

function InboxSkeleton({ className }: { className?: string }) {
  const { t } = useI18n();
  return (
    <div
      className={className ? `skeleton-list ${className}` : 'skeleton-list'}
      aria-busy="true"
      aria-label={t('common.loading')}
    >
      <div className="skeleton" />
      <div className="skeleton" />
    </div>
  );
}

function EmptyInbox({
  paired,
  signIn,
  className,
  children,
}: {
  paired: boolean;
  /** A team hub's sign-in, offered first to a device that is not paired (R21.32); undefined until the hub says. */
  signIn: HubSignIn | null | undefined;
  className?: string;
  children?: React.ReactNode;
}) {
  const { t } = useI18n();
  return (
    <div
      className={className ? `empty ${className}` : 'empty'}
      data-testid="inbox.empty"
      data-sign-in={signIn === undefined ? undefined : signIn ? 'offered' : 'none'}
    >
      <IconInbox size={40} />
      <h2>{t('inbox.emptyTitle')}</h2>
      <p>{t('inbox.emptyBody')}</p>
      {signIn && !paired ? <signInOffer.Slot signIn={signIn} /> : null}
      {children}
      <div className="empty__setup">
        <h3>
          <IconLink size={16} /> {t('inbox.connectAgent')}
        </h3>
        <p>{t('inbox.connectAgentBody')}</p>
        {paired ? null : (
          // One primary per screen: with a sign-in offered, that is the sign-in.
          <Link href="/pair" className={signIn ? 'button' : 'button button--primary'}>
            {t('pair.action')}
          </Link>
        )}
      </div>
    </div>
  );
}
