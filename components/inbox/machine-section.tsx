'use client';
import { memo } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { LOCAL_MACHINE_ID } from '@/lib/contracts/machine-keys';
import { machinePresence } from '@/lib/client/machine-presence';
import { type MachineSection as Section } from '@/lib/client/machine-sections';
import { type RemoteState } from '@/lib/client/store';
import { IconHub, IconMachine } from '../icons/machines';
import { MachineState } from '../machine-state';
import { SessionGroup } from './session-group';
import '@/lib/client/i18n-en-inbox';

interface Props {
  section: Section;
  /** Unique on the page: prefixes the headings' ids. */
  id: string;
  answers: RemoteState['answers'];
  clockOffsetMs: number;
  live: boolean;
  /** More than one agent is on record (R18.1). */
  showAgent: boolean;
}

/**
 * One machine's waiting prompts (R17.3): a heading with its name, whether its agents are there now
 * and how many prompts wait, then its sessions. Only machines with something waiting get one.
 * Memoized: a machine list that changes another machine leaves this section as it is (R17.9).
 */
export const MachineSection = memo(function MachineSection({
  section,
  id,
  answers,
  clockOffsetMs,
  live,
  showAgent,
}: Props) {
  const { t } = useI18n();
  const { machine, info } = section;
  const hub = machine.id === LOCAL_MACHINE_ID;
  const Icon = hub ? IconHub : IconMachine;
  const away = machinePresence(info, live) === 'away';
  return (
    <section
      className="inbox-machine"
      aria-labelledby={id}
      data-testid="inbox.machine"
      data-machine-id={machine.id}
      data-presence={machinePresence(info, live)}
    >
      <div className="inbox-machine__head">
        <h2 className="inbox-machine__name" id={id}>
          <Icon size={18} />
          <span className="inbox-machine__label">{machine.name}</span>
          {hub ? <span className="inbox-machine__hub">{t('machine.hub')}</span> : null}
        </h2>
        <p className="inbox-machine__meta">
          <MachineState info={info} live={live} clockOffsetMs={clockOffsetMs} urgent />
          <span className="inbox-machine__count">{t('inbox.waiting', { n: section.count })}</span>
        </p>
      </div>
      {section.groups.map((group, index) => (
        <SessionGroup
          key={group.key}
          group={group}
          id={`${id}-${index}`}
          level={3}
          answers={answers}
          clockOffsetMs={clockOffsetMs}
          showMachine
          showAgent={showAgent}
          waitingFor={away ? machine.name : undefined}
        />
      ))}
    </section>
  );
});
