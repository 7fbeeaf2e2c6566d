'use client';
import { useMemo, useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { useRememberedChoice } from '@/hooks/use-remembered-choice';
import { useNow } from '@/hooks/use-now';
import { usePairing } from '@/hooks/use-pairing';
import { useRemote } from '@/hooks/use-remote';
import { useTeam } from '@/hooks/use-team';
import { lazyPart } from '@/hooks/use-lazy-part';
import {
  byAgent,
  effectiveFilter,
  onMachine,
  selectAgentOptions,
  selectMachineOptions,
} from '@/lib/client/filter-options';
import { selectShowAgents } from '@/lib/client/agent-selectors';
import { projectLabel, shortSessionId } from '@/lib/client/format';
import { selectShowMachines } from '@/lib/client/machine-selectors';
import { selectHistory } from '@/lib/client/history-selectors';
import { agentFilter, machineFilter } from '@/lib/client/remembered-choice';
import { sessionKey } from '@/lib/client/view-keys';
import { IconHistory } from '../icons/shell';
import { AgentFilter } from '../agent-filter';
import { MachineFilter } from '../machine-filter';
import { ScreenHeader } from '../shell/screen-header';
import { ChipFilter } from '../chip-filter';
import { HistoryItem } from './history-item';
import '@/lib/client/i18n-en-screens';
import '@/app/styles/history.css';

// An owner's or admin's audit record on a team hub (R21.84): its own chunk, loaded when chosen.
const auditList = lazyPart(() => import('./audit-list').then((module) => module.AuditList));

/** R9.7: resolved and withdrawn prompts, newest first, filterable by machine (R17.3), agent (R18.1) and session. */
export function HistoryView() {
  const state = useRemote();
  const pairing = usePairing();
  const { t } = useI18n();
  const now = useNow('minute');
  const all = selectHistory(state.host);
  const showMachines = selectShowMachines(state.host);
  const machineOptions = selectMachineOptions(state.host);
  const rememberedMachine = useRememberedChoice(machineFilter);
  const machine = showMachines ? effectiveFilter(rememberedMachine, machineOptions) : '';
  const showAgents = selectShowAgents(state.host);
  const agentOptions = selectAgentOptions(state.host);
  const rememberedAgent = useRememberedChoice(agentFilter);
  const agent = showAgents ? effectiveFilter(rememberedAgent, agentOptions) : '';
  const [session, setSession] = useState('');
  const team = useTeam(pairing, state.status === 'connected');
  const [show, setShow] = useState<'questions' | 'audit'>('questions');
  // The record is a person's to read, an owner's or admin's: not a pairing link's device, which manages the team
  // as the operator but reads no audit (R21.67).
  const readsAudit = team?.canManage === true;
  const audit = show === 'audit' && readsAudit && pairing !== null;
  const chosen = useMemo(
    () =>
      machine === '' && agent === '' ? all : all.filter((view) => onMachine(view, machine) && byAgent(view, agent)),
    [all, machine, agent],
  );
  const sessions = useMemo(() => {
    const seen = new Map<string, string>();
    for (const view of chosen) {
      const key = sessionKey(view);
      if (!seen.has(key)) {
        const project = projectLabel(view.context);
        const where = showMachines && machine === '' ? `${view.machine.name} · ` : '';
        const who = showAgents && agent === '' && view.agent ? `${view.agent.name} · ` : '';
        seen.set(
          key,
          `${where}${who}${project ? `${project} · ` : ''}${t('common.session', { id: shortSessionId(view.sessionId) })}`,
        );
      }
    }
    return [...seen.entries()];
  }, [chosen, showMachines, machine, showAgents, agent, t]);
  // A session of another machine or agent than the one now chosen is not a filter any more.
  const sessionFilter = sessions.some(([key]) => key === session) ? session : '';
  const list = sessionFilter ? chosen.filter((view) => sessionKey(view) === sessionFilter) : chosen;

  return (
    <>
      <ScreenHeader title={t('history.title')} />
      {readsAudit ? (
        <ChipFilter
          testId="history.show"
          legend={t('history.show')}
          name="history-show"
          choices={[
            { id: 'questions', name: t('history.showQuestions') },
            { id: 'audit', name: t('history.showAudit') },
          ]}
          value={show}
          onChange={(id) => {
            if (id === 'audit') void auditList.preload().catch(() => undefined);
            setShow(id === 'audit' ? 'audit' : 'questions');
          }}
        />
      ) : null}
      {audit && pairing ? <auditList.Slot pairing={pairing} /> : null}
      {audit ? null : (
        <>
          {showMachines && machineOptions.length > 1 ? (
            <MachineFilter name="history-machine" options={machineOptions} value={machine} />
          ) : null}
          {showAgents ? <AgentFilter name="history-agent" options={agentOptions} value={agent} /> : null}
          {sessions.length > 1 ? (
            <label className="filter">
              <span className="filter__label">{t('history.filterSession')}</span>
              <select
                className="field filter__select"
                value={sessionFilter}
                onChange={(event) => setSession(event.target.value)}
                data-testid="history.filter"
              >
                <option value="">{t('history.allSessions')}</option>
                {sessions.map(([id, name]) => (
                  <option key={id} value={id}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {list.length === 0 ? (
            <div className="empty" data-testid="history.empty">
              <IconHistory size={40} />
              <p>
                {state.host.hasSnapshot ||
                state.host.cached ||
                state.status === 'unpaired' ||
                state.status === 'refused'
                  ? t('history.empty')
                  : t('common.loading')}
              </p>
            </div>
          ) : (
            <ul className="history" data-testid="history.list">
              {list.map((view) => (
                <HistoryItem
                  key={view.requestId}
                  view={view}
                  myDeviceId={pairing?.deviceId ?? null}
                  now={now}
                  showMachine={showMachines}
                  showAgent={showAgents}
                />
              ))}
            </ul>
          )}
        </>
      )}
    </>
  );
}
