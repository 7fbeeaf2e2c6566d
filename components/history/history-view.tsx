'use client';
import { useMemo, useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { useMachineFilter } from '@/hooks/use-machine-filter';
import { useNow } from '@/hooks/use-now';
import { usePairing } from '@/hooks/use-pairing';
import { useRemote } from '@/hooks/use-remote';
import { projectLabel, shortSessionId } from '@/lib/client/format';
import {
  effectiveMachineFilter,
  onMachine,
  selectMachineOptions,
  selectShowMachines,
} from '@/lib/client/machine-selectors';
import { selectHistory } from '@/lib/client/history-selectors';
import { sessionKey } from '@/lib/client/selectors';
import { IconHistory } from '../icons/shell';
import { MachineFilter } from '../machine-filter';
import { ScreenHeader } from '../shell/screen-header';
import { HistoryItem } from './history-item';
import '@/lib/client/i18n-en-screens';
import '@/app/styles/history.css';

/** R9.7: resolved and withdrawn prompts, newest first, filterable by machine (R17.3) and session. */
export function HistoryView() {
  const state = useRemote();
  const pairing = usePairing();
  const { t } = useI18n();
  const now = useNow('minute');
  const all = selectHistory(state.host);
  const showMachines = selectShowMachines(state.host);
  const machineOptions = selectMachineOptions(state.host);
  const remembered = useMachineFilter();
  const machine = showMachines ? effectiveMachineFilter(remembered, machineOptions) : '';
  const [session, setSession] = useState('');
  const onThisMachine = useMemo(
    () => (machine === '' ? all : all.filter((view) => onMachine(view, machine))),
    [all, machine],
  );
  const sessions = useMemo(() => {
    const seen = new Map<string, string>();
    for (const view of onThisMachine) {
      const key = sessionKey(view);
      if (!seen.has(key)) {
        const project = projectLabel(view.context);
        const where = showMachines && machine === '' ? `${view.machine.name} · ` : '';
        seen.set(
          key,
          `${where}${project ? `${project} · ` : ''}${t('common.session', { id: shortSessionId(view.sessionId) })}`,
        );
      }
    }
    return [...seen.entries()];
  }, [onThisMachine, showMachines, machine, t]);
  // A session of another machine than the one now chosen is not a filter any more.
  const sessionFilter = sessions.some(([key]) => key === session) ? session : '';
  const list = sessionFilter ? onThisMachine.filter((view) => sessionKey(view) === sessionFilter) : onThisMachine;

  return (
    <>
      <ScreenHeader title={t('history.title')} />
      {showMachines && machineOptions.length > 1 ? (
        <MachineFilter name="history-machine" options={machineOptions} value={machine} />
      ) : null}
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
            {state.host.hasSnapshot || state.host.cached || state.status === 'unpaired' || state.status === 'refused'
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
            />
          ))}
        </ul>
      )}
    </>
  );
}
