'use client';
import { Link } from '../link';
import { memo } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type InteractionView, type MachineRef } from '@/lib/contracts';
import { type Translate } from '@/lib/client/i18n';
import { approvalTitle, formTitle } from '@/lib/client/agent-prompt-title';
import { summarizePermission } from '@/lib/client/permission-summary';
import { type AnswerPhase } from '@/lib/client/store';
import { loadCardKind } from '../card/card-kinds';
import { AgentChip } from '../agent-chip';
import { agentDeadlineOf, Countdown } from '../countdown';
import { IconChevron } from '../icons/navigation';
import { IconPause } from '../icons/time';
import { IconCloudOff } from '../icons/shell';
import { KindChip } from '../kind-chip';
import { MachineChip } from '../machine-chip';
import { OriginLabel } from '../origin-label';
import { HandedOverNote } from '../handed-over-note';
import { PersonChip } from '../person-chip';
import { Age } from './age';
import '@/lib/client/i18n-en-inbox';
import '@/lib/client/i18n-en-prompts';

function headline(view: InteractionView, t: Translate): { title: string; detail?: string } {
  if (view.kind === 'question') return { title: view.input.questions[0]?.question ?? '' };
  if (view.kind === 'plan-approval') {
    const firstLine = view.input.plan?.split('\n').find((line) => line.trim() !== '');
    return { title: t('plan.title'), detail: firstLine?.replace(/^#+\s*/, '') ?? view.input.planFilePath };
  }
  if (view.kind === 'approval') {
    const title = approvalTitle(view.input, view.toolName);
    return { title, detail: title === view.input.reason ? undefined : view.input.reason };
  }
  if (view.kind === 'form') return { title: formTitle(view.input) };
  const summary = summarizePermission(view.toolName, view.input);
  return { title: t('permission.title', { tool: view.toolName }), detail: summary.description ?? summary.text };
}

interface Props {
  view: InteractionView;
  clockOffsetMs: number;
  phase: AnswerPhase | undefined;
  /** Shown when more than one machine is known (R17.3). */
  machine?: MachineRef | undefined;
  /** More than one agent is on record (R18.1). */
  showAgent: boolean;
  /** The machine's name when none of its agents is connected: this prompt waits for it (R17.6). */
  waitingFor?: string | undefined;
  /** The row's lines when its section says them (a finished turn's, R19.8). */
  lines?: { title: string; detail?: string };
}

/** One pending prompt. Memoized: a live event re-renders only the rows it touched. */
export const InboxItem = memo(function InboxItem({
  view,
  clockOffsetMs,
  phase,
  machine,
  showAgent,
  waitingFor,
  lines,
}: Props) {
  const { t } = useI18n();
  const { title, detail } = lines ?? headline(view, t);
  const count = view.kind === 'question' ? view.input.questions.length : 0;
  return (
    <li className="inbox-item" data-kind={view.kind}>
      <Link
        href={`/card?id=${encodeURIComponent(view.requestId)}`}
        className="inbox-item__link"
        data-testid="inbox.item"
        data-request-id={view.requestId}
        // The card's own chunk (R13.4), started as the finger comes down rather than once the card route runs.
        onPointerDown={() => void loadCardKind(view.kind)}
        onFocus={() => void loadCardKind(view.kind)}
      >
        <span className="inbox-item__top">
          <KindChip view={view} />
          {machine ? <MachineChip machine={machine} /> : null}
          {showAgent ? <AgentChip agent={view.agent} /> : null}
          <PersonChip owner={view.askedFor} />
          <OriginLabel view={view} />
        </span>
        <span className="inbox-item__title">{title}</span>
        {detail ? <span className="inbox-item__detail">{detail}</span> : null}
        <span className="inbox-item__meta">
          {count > 0 ? (
            <span>{count === 1 ? t('inbox.oneQuestion') : t('inbox.questionCount', { n: count })}</span>
          ) : null}
          <Age createdAt={view.createdAt} clockOffsetMs={clockOffsetMs} />
          {view.handedOver ? <HandedOverNote handedOver={view.handedOver} /> : null}
          {phase === 'queued' || phase === 'sending' ? (
            <span className="state state--queued" data-testid="inbox.queued">
              <IconCloudOff size={14} />
              {t('receipt.queued')}
            </span>
          ) : null}
          {waitingFor ? (
            <span className="state state--queued" data-testid="inbox.waiting-for-machine">
              <IconPause size={14} />
              {t('machine.waitingFor', { name: waitingFor })}
            </span>
          ) : null}
        </span>
        {/* Only rows that count down follow the connection (useLive): a long inbox stays still when it changes. */}
        {view.autoResolution.status === 'scheduled' || view.context?.movesToTerminalAt !== undefined ? (
          <Countdown autoResolution={view.autoResolution} clockOffsetMs={clockOffsetMs} agent={agentDeadlineOf(view)} />
        ) : null}
        <IconChevron className="inbox-item__chevron" size={18} />
      </Link>
    </li>
  );
});
