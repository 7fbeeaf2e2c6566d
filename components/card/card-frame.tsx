'use client';
import { Link } from '../link';
import { useI18n } from '@/hooks/use-i18n';
import { useRemote } from '@/hooks/use-remote';
import { type InteractionView } from '@/lib/contracts';
import { projectLabel } from '@/lib/client/format';
import { selectShowAgents } from '@/lib/client/agent-selectors';
import { selectShowMachines } from '@/lib/client/machine-selectors';
import { machinesLive } from '@/lib/client/machine-presence';
import { waitsForMachine } from '@/lib/client/machine-waits';
import { originLabel } from '@/lib/client/view-keys';
import { ConnectionPill } from '../shell/connection-status';
import { IconBack } from '../icons/card-chrome';
import { IconPause } from '../icons/time';
import { AgentChip } from '../agent-chip';
import { IconTerminal } from '../icons/terminal';
import { MachineChip } from '../machine-chip';
import { PersonChip } from '../person-chip';
import { CardPeople } from './card-people';
import { ContextBlock } from './context-block';
import '@/lib/client/i18n-en-card';
// With every kind's chunk (./card-kinds.ts), not the card route's first screen.
import '@/app/styles/card.css';

interface Props {
  view: InteractionView;
  menu?: React.ReactNode;
  /** A screen-reader page heading when the visible title is not a heading (question legends). */
  srTitle?: string;
  children: React.ReactNode;
  actions?: React.ReactNode;
}

/** Shared card chrome: back, step indicator, menu; who asked and where; context; a sticky action bar. */
export function CardFrame({ view, menu, children, actions, srTitle }: Props) {
  const { t } = useI18n();
  const state = useRemote();
  const showMachine = selectShowMachines(state.host);
  const waiting = waitsForMachine(view, state.host, machinesLive(state));
  const origin = originLabel(view);
  const project = projectLabel(view.context);
  const cwd = view.context?.cwd;
  return (
    <article
      className="card"
      data-testid="card"
      data-kind={view.kind}
      data-status={view.status}
      data-request-id={view.requestId}
    >
      <header className="card-header">
        <Link href="/" className="card-header__back" data-testid="card.back-to-inbox">
          <IconBack size={22} />
          <span>{t('nav.inbox')}</span>
        </Link>
        <div className="card-header__end">
          <ConnectionPill />
          {menu}
        </div>
      </header>
      {srTitle ? <h1 className="sr-only">{srTitle}</h1> : null}
      <p className="card-meta">
        {showMachine ? <MachineChip machine={view.machine} /> : null}
        {selectShowAgents(state.host) ? <AgentChip agent={view.agent} /> : null}
        <PersonChip owner={view.askedFor} />
        <span className="origin" data-testid="card.origin">
          {origin || t('common.mainAgent')}
        </span>
        {project ? (
          <span className="card-meta__project" title={cwd}>
            {project}
          </span>
        ) : null}
      </p>
      <CardPeople view={view} />
      {waiting ? (
        <div className="machine-notice" role="status" data-testid="card.waiting-for-machine">
          <p className="state state--queued">
            <IconPause size={18} />
            {t('machine.waitingFor', { name: view.machine.name })}
          </p>
          <p className="machine-notice__hint">{t('machine.waitingForHint', { name: view.machine.name })}</p>
        </div>
      ) : null}
      {view.status === 'pending' && view.context?.openInTerminal ? (
        // No agent tells that someone is typing in its dialog, so the card says the dialog is there (R11.10).
        <div className="terminal-notice" data-testid="card.open-in-terminal">
          <p className="terminal-notice__title">
            <IconTerminal size={18} />
            {t('card.openInTerminal', { machine: view.machine.name })}
          </p>
          <p className="terminal-notice__hint">{t('card.openInTerminalHint')}</p>
        </div>
      ) : null}
      <ContextBlock context={view.context} />
      <div className="card__content">{children}</div>
      {actions ? <div className="action-bar">{actions}</div> : null}
    </article>
  );
}
