'use client';
import { memo } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { shortSessionId } from '@/lib/client/format';
import { type InboxGroup } from '@/lib/client/selectors';
import { type RemoteState } from '@/lib/client/store';
import { InboxItem } from './inbox-item';

interface Props {
  group: InboxGroup;
  /** Unique on the page: the heading's id. */
  id: string;
  /** h2 in a one-machine inbox, h3 under a machine's heading. */
  level: 2 | 3;
  answers: RemoteState['answers'];
  clockOffsetMs: number;
  /** Show each item's machine (more than one machine is known). */
  showMachine: boolean;
  /** Show each item's agent (more than one agent is on record, R18.1). */
  showAgent: boolean;
  /** The machine's name when it has no agent connected now: its items wait for it (R17.6). */
  waitingFor: string | undefined;
}

/** One root session's waiting prompts, newest first. Memoized: its machine's state line changing leaves it be. */
export const SessionGroup = memo(function SessionGroup({
  group,
  id,
  level,
  answers,
  clockOffsetMs,
  showMachine,
  showAgent,
  waitingFor,
}: Props) {
  const { t } = useI18n();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className="inbox-group" aria-labelledby={id} data-testid="inbox.group" data-session-id={group.sessionId}>
      <Heading className="inbox-group__title" id={id}>
        {group.project ? <span>{group.project}</span> : null}
        <span className="inbox-group__session">{t('common.session', { id: shortSessionId(group.sessionId) })}</span>
      </Heading>
      <ul className="inbox-group__list">
        {group.items.map((view) => (
          <InboxItem
            key={view.requestId}
            view={view}
            clockOffsetMs={clockOffsetMs}
            phase={answers.get(view.requestId)?.phase}
            machine={showMachine ? view.machine : undefined}
            showAgent={showAgent}
            waitingFor={waitingFor}
          />
        ))}
      </ul>
    </section>
  );
});
