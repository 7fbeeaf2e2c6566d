'use client';
import { useMemo, useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { useNow } from '@/hooks/use-now';
import { usePairing } from '@/hooks/use-pairing';
import { useRemote } from '@/hooks/use-remote';
import { projectLabel, shortSessionId } from '@/lib/client/format';
import { selectHistory } from '@/lib/client/selectors';
import { IconHistory } from '../icons';
import { ScreenHeader } from '../shell/screen-header';
import { HistoryItem } from './history-item';

/** R9.7: resolved and withdrawn prompts, newest first, filterable by session. */
export function HistoryView() {
  const state = useRemote();
  const pairing = usePairing();
  const { t } = useI18n();
  const now = useNow('minute');
  const all = selectHistory(state.host);
  const [session, setSession] = useState('');
  const sessions = useMemo(() => {
    const seen = new Map<string, string>();
    for (const view of all) {
      if (!seen.has(view.sessionId)) {
        const project = projectLabel(view.context);
        seen.set(
          view.sessionId,
          `${project ? `${project} · ` : ''}${t('common.session', { id: shortSessionId(view.sessionId) })}`,
        );
      }
    }
    return [...seen.entries()];
  }, [all, t]);
  const list = session ? all.filter((view) => view.sessionId === session) : all;

  return (
    <>
      <ScreenHeader title={t('history.title')} />
      {sessions.length > 1 ? (
        <label className="filter">
          <span className="filter__label">{t('history.filterSession')}</span>
          <select
            className="field filter__select"
            value={session}
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
            <HistoryItem key={view.requestId} view={view} myDeviceId={pairing?.deviceId ?? null} now={now} />
          ))}
        </ul>
      )}
    </>
  );
}
