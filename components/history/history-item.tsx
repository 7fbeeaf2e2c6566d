'use client';
import { memo } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type InteractionView } from '@/lib/contracts';
import { approvalTitle, finishedTurnTitle, formTitle } from '@/lib/client/agent-prompt-title';
import { type MessageKey, type Translate } from '@/lib/client/i18n';
import { formatStamp } from '@/lib/client/format';
import { summarize, type Summary } from '@/lib/client/history-summary';
import { historyTime } from '@/lib/client/history-selectors';
import { resolvedByText } from '@/lib/client/team-words';
import { ResponseBody } from '../card/response-body';
import { IconSkip, IconUndo, IconX } from '../icons/outcomes';
import { IconClock } from '../icons/time';
import { IconTerminal } from '../icons/terminal';
import { IconAlert, IconCheck } from '../icons/shell';
import { KindChip } from '../kind-chip';
import { AgentChip } from '../agent-chip';
import { MachineChip } from '../machine-chip';
import { OriginLabel } from '../origin-label';
import { HandedOverNote } from '../handed-over-note';
import { PersonChip } from '../person-chip';
import '@/lib/client/i18n-en-screens';
import '@/lib/client/i18n-en-prompts';
import '@/lib/client/i18n-en-outcomes';

/** The words of each summary (R9.7, R18.6); a partial answer counts its questions. */
const LABELS: Record<Exclude<Summary['kind'], 'partly'>, MessageKey> = {
  answered: 'outcome.answered',
  skipped: 'outcome.skipped',
  auto: 'outcome.auto',
  declined: 'outcome.declined',
  cancelled: 'outcome.cancelled',
  'other-device': 'outcome.otherDevice',
  withdrawn: 'outcome.withdrawn',
  terminal: 'outcome.terminal',
  editor: 'outcome.editor',
  approved: 'outcome.approved',
  rejected: 'outcome.rejected',
  allowed: 'outcome.allowed',
  denied: 'outcome.denied',
};

function label(summary: Summary, t: Translate): string {
  return summary.kind === 'partly'
    ? t('outcome.partly', { n: summary.answered, m: summary.total })
    : t(LABELS[summary.kind]);
}

function SummaryIcon({ kind }: { kind: Summary['kind'] }) {
  if (kind === 'auto') return <IconClock size={16} />;
  if (kind === 'skipped') return <IconSkip size={16} />;
  if (kind === 'withdrawn' || kind === 'cancelled') return <IconUndo size={16} />;
  if (kind === 'declined' || kind === 'rejected' || kind === 'denied') return <IconX size={16} />;
  if (kind === 'other-device') return <IconAlert size={16} />;
  if (kind === 'terminal' || kind === 'editor') return <IconTerminal size={16} />;
  return <IconCheck size={16} />;
}

function title(view: InteractionView, t: Translate): string {
  if (view.kind === 'question') return view.input.questions.map((question) => question.question).join(' · ');
  if (view.kind === 'plan-approval') return t('plan.title');
  if (view.kind === 'approval') return approvalTitle(view.input, view.toolName);
  if (view.kind === 'form') return formTitle(view.input);
  if (view.kind === 'finished-turn') return finishedTurnTitle(view.input) ?? '';
  return t('permission.title', { tool: view.toolName });
}

interface Props {
  view: InteractionView;
  myDeviceId: string | null;
  now: number;
  /** More than one machine is known: say which one asked (R17.3). */
  showMachine: boolean;
  /** More than one agent is on record: say which one asked (R18.1). */
  showAgent: boolean;
}

/** A past prompt with its R9.7 summary, who resolved it, when, and the answers. */
export const HistoryItem = memo(function HistoryItem({ view, myDeviceId, now, showMachine, showAgent }: Props) {
  const { t, lang } = useI18n();
  const summary = summarize(view, myDeviceId);
  const time = historyTime(view);
  // An answer the agent refused (its terminal's came first) is not what happened: the withdrawal is.
  const resolution = view.status === 'resolved' ? view.resolution : undefined;
  const response = resolution?.response;
  // On a team hub, who answered and on which device (R21.22): a teammate's answer is no warning.
  const byPerson = resolution ? resolvedByText(view, resolution, t, lang) : null;
  return (
    <li
      className="history-item"
      data-testid="history.item"
      data-summary={summary.kind}
      data-request-id={view.requestId}
    >
      <div className="history-item__top">
        <KindChip view={view} />
        {showMachine ? <MachineChip machine={view.machine} /> : null}
        {showAgent ? <AgentChip agent={view.agent} /> : null}
        <PersonChip owner={view.askedFor} />
        <OriginLabel view={view} />
        <time className="history-item__time" dateTime={time}>
          {now === 0 ? '' : formatStamp(time, lang, now)}
        </time>
      </div>
      <p className="history-item__title">{title(view, t)}</p>
      <p className={`state ${summary.kind === 'auto' ? 'state--auto' : 'state--quiet'}`} data-testid="history.summary">
        <SummaryIcon kind={byPerson ? summarize(view, null).kind : summary.kind} />
        {byPerson ??
          `${label(summary, t)}${resolution?.device?.label && resolution.resolvedBy === 'user' ? ` · ${resolution.device.label}` : ''}`}
      </p>
      {view.handedOver ? <HandedOverNote handedOver={view.handedOver} /> : null}
      {view.kind === 'question' && response?.action === 'accept' && summary.answered > 0 ? (
        <ResponseBody view={view} response={response} />
      ) : null}
      {view.kind === 'finished-turn' && view.resolution?.response.action === 'accept' ? (
        // The reply, sent or kept after the agent refused it (R19.11).
        <ResponseBody view={view} response={view.resolution.response} />
      ) : null}
      {response?.action === 'decline' && response.message ? (
        <p className="history-item__reason">{t('history.reason', { r: response.message })}</p>
      ) : null}
      {view.terminalAnswer?.response ? <ResponseBody view={view} response={view.terminalAnswer.response} /> : null}
      {view.status === 'withdrawn' && view.withdrawnReason && !view.terminalAnswer ? (
        <p className="history-item__reason">{t('history.reason', { r: view.withdrawnReason })}</p>
      ) : null}
    </li>
  );
});
