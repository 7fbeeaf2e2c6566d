'use client';
import { memo } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type InteractionView } from '@/lib/contracts';
import { approvalTitle, formTitle } from '@/lib/client/agent-prompt-title';
import { type Translate } from '@/lib/client/i18n';
import { formatStamp } from '@/lib/client/format';
import { summarize, type Summary } from '@/lib/client/history-summary';
import { historyTime } from '@/lib/client/history-selectors';
import { ResponseBody } from '../card/response-body';
import { IconClock, IconSkip, IconUndo, IconX } from '../icons/outcomes';
import { IconAlert, IconCheck } from '../icons/shell';
import { KindChip } from '../kind-chip';
import { AgentChip } from '../agent-chip';
import { MachineChip } from '../machine-chip';
import { OriginLabel } from '../origin-label';
import '@/lib/client/i18n-en-screens';
import '@/lib/client/i18n-en-prompts';
import '@/lib/client/i18n-en-outcomes';

function label(summary: Summary, t: Translate): string {
  switch (summary.kind) {
    case 'answered':
      return t('outcome.answered');
    case 'partly':
      return t('outcome.partly', { n: summary.answered, m: summary.total });
    case 'skipped':
      return t('outcome.skipped');
    case 'auto':
      return t('outcome.auto');
    case 'declined':
      return t('outcome.declined');
    case 'cancelled':
      return t('outcome.cancelled');
    case 'other-device':
      return t('outcome.otherDevice');
    case 'withdrawn':
      return t('outcome.withdrawn');
    case 'approved':
      return t('outcome.approved');
    case 'rejected':
      return t('outcome.rejected');
    case 'allowed':
      return t('outcome.allowed');
    case 'denied':
      return t('outcome.denied');
  }
}

function SummaryIcon({ kind }: { kind: Summary['kind'] }) {
  if (kind === 'auto') return <IconClock size={16} />;
  if (kind === 'skipped') return <IconSkip size={16} />;
  if (kind === 'withdrawn' || kind === 'cancelled') return <IconUndo size={16} />;
  if (kind === 'declined' || kind === 'rejected' || kind === 'denied') return <IconX size={16} />;
  if (kind === 'other-device') return <IconAlert size={16} />;
  return <IconCheck size={16} />;
}

function title(view: InteractionView, t: Translate): string {
  if (view.kind === 'question') return view.input.questions.map((question) => question.question).join(' · ');
  if (view.kind === 'plan-approval') return t('plan.title');
  if (view.kind === 'approval') return approvalTitle(view.input, view.toolName);
  if (view.kind === 'form') return formTitle(view.input);
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
  const response = view.resolution?.response;
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
        <OriginLabel view={view} />
        <time className="history-item__time" dateTime={time}>
          {now === 0 ? '' : formatStamp(time, lang, now)}
        </time>
      </div>
      <p className="history-item__title">{title(view, t)}</p>
      <p className={`state ${summary.kind === 'auto' ? 'state--auto' : 'state--quiet'}`} data-testid="history.summary">
        <SummaryIcon kind={summary.kind} />
        {label(summary, t)}
        {view.resolution?.device?.label && view.resolution.resolvedBy === 'user'
          ? ` · ${view.resolution.device.label}`
          : ''}
      </p>
      {view.kind === 'question' && response?.action === 'accept' && summary.answered > 0 ? (
        <ResponseBody view={view} response={response} />
      ) : null}
      {response?.action === 'decline' && response.message ? (
        <p className="history-item__reason">{t('history.reason', { r: response.message })}</p>
      ) : null}
      {view.status === 'withdrawn' && view.withdrawnReason ? (
        <p className="history-item__reason">{t('history.reason', { r: view.withdrawnReason })}</p>
      ) : null}
    </li>
  );
});
