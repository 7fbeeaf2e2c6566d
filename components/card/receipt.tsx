'use client';
import { type InteractionResolution, type InteractionResponse, type InteractionView } from '@/lib/contracts';
import { useI18n } from '@/hooks/use-i18n';
import { useRemote } from '@/hooks/use-remote';
import { type Translate } from '@/lib/client/i18n';
import { formatClock } from '@/lib/client/format';
import { selectShowAgents } from '@/lib/client/agent-selectors';
import { selectShowMachines } from '@/lib/client/machine-selectors';
import { machinesLive } from '@/lib/client/machine-presence';
import { deliveryWaitsForMachine } from '@/lib/client/machine-waits';
import { type LocalAnswer } from '@/lib/client/store';
import { resolvedByText } from '@/lib/client/team-words';
import { IconPerson } from '../icons/people';
import { IconCheckDouble, IconUndo } from '../icons/outcomes';
import { IconPause } from '../icons/time';
import { IconTerminal } from '../icons/terminal';
import { IconAlert, IconCheck, IconCloudOff, IconRefresh } from '../icons/shell';
import { AgentChip } from '../agent-chip';
import { MachineChip } from '../machine-chip';
import { FormResponse } from './form-values';
import { ResponseBody } from './response-body';
import '@/app/styles/answers.css';
import '@/lib/client/i18n-en-prompts';
import '@/lib/client/i18n-en-outcomes';

interface Props {
  view: InteractionView;
  local: LocalAnswer | undefined;
  myDeviceId: string | null;
  online: boolean;
}

export function isMine(resolution: InteractionResolution, local: LocalAnswer | undefined, myDeviceId: string | null) {
  if (local && resolution.clientResponseId === local.clientResponseId) return true;
  return myDeviceId !== null && resolution.device?.id === myDeviceId && resolution.resolvedBy === 'user';
}

function byWhom(resolution: InteractionResolution, t: Translate): string {
  if (resolution.resolvedBy === 'auto') return t('receipt.byAuto');
  if (resolution.resolvedBy === 'runtime') return t('receipt.byAgent');
  return resolution.device?.label
    ? `${t('receipt.byOtherDevice')} (${resolution.device.label})`
    : t('receipt.byOtherDevice');
}

/** The card after submit: delivery state in words (delivery is always visible), in place of the form. */
export function Receipt({ view, local, myDeviceId, online }: Props) {
  const { t, lang } = useI18n();
  const state = useRemote();
  // The host's ack can come before the state that shows the outcome (an answer queued on a cached card).
  const resolution =
    view.resolution ?? (local?.phase === 'accepted' || local?.phase === 'lost' ? local.resolution : undefined);
  const resolved = view.status === 'resolved' || (view.status === 'pending' && resolution !== undefined);
  if (resolved && resolution && isMine(resolution, local, myDeviceId)) {
    // The hub has the answer; the agent gets it when its machine is back (R17.6).
    const waiting = deliveryWaitsForMachine(view, state.host, machinesLive(state));
    const machine = (
      <>
        {selectShowMachines(state.host) ? <MachineChip machine={view.machine} /> : null}
        {selectShowAgents(state.host) ? <AgentChip agent={view.agent} /> : null}
      </>
    );
    return (
      <section
        className="receipt"
        data-testid="card.receipt"
        data-state={view.deliveredAt ? 'applied' : waiting ? 'waiting-for-machine' : 'delivered'}
      >
        <p className="state state--ok" data-testid="card.receipt-status">
          <IconCheck size={18} />
          {t('receipt.delivered', { time: formatClock(resolution.resolvedAt, lang) })}
        </p>
        <AnsweredBy view={view} resolution={resolution} />
        {view.deliveredAt ? (
          <p className="state state--ok receipt__to" data-testid="card.receipt-applied">
            <IconCheckDouble size={18} />
            {t('receipt.applied')}
            {machine}
          </p>
        ) : waiting ? (
          // The line names the machine already; a chip beside it would wrap under the icon on a phone.
          <p className="state state--queued" data-testid="card.receipt-waiting">
            <IconPause size={18} />
            {t('machine.deliveryWaits', { name: view.machine.name })}
          </p>
        ) : null}
        <Sent view={view} response={resolution.response} />
      </section>
    );
  }
  if (resolved && resolution) {
    // On a team hub a teammate's answer names them (R21.22): "Answered by Ana Lima on Pixel 8 at 14:02".
    const byPerson = resolvedByText(view, resolution, t, lang);
    return (
      <section className="receipt" data-testid="card.receipt" data-state="lost">
        <p className="state state--quiet" data-testid="card.receipt-status">
          {byPerson ? <IconPerson size={18} /> : <IconAlert size={18} />}
          {byPerson ??
            t('receipt.lostRace', { by: byWhom(resolution, t), time: formatClock(resolution.resolvedAt, lang) })}
        </p>
        <Sent view={view} response={resolution.response} />
        {local ? <YourAnswer view={view} local={local} /> : null}
      </section>
    );
  }
  if (view.status === 'withdrawn' && view.terminalAnswer) {
    // The agent's own terminal answered first (R18.6): what it chose, and this device's answer kept readable.
    const response = view.terminalAnswer.response;
    return (
      <section className="receipt" data-testid="card.receipt" data-state="terminal">
        <p className="state state--quiet" data-testid="card.receipt-status">
          <IconTerminal size={18} />
          {view.withdrawnAt
            ? t(view.terminalAnswer.where === 'editor' ? 'receipt.editor' : 'receipt.terminal', {
                time: formatClock(view.withdrawnAt, lang),
              })
            : t(view.terminalAnswer.where === 'editor' ? 'outcome.editor' : 'outcome.terminal')}
        </p>
        {response ? <Sent view={view} response={response} /> : null}
        {local ? <YourAnswer view={view} local={local} /> : null}
      </section>
    );
  }
  if (view.status === 'withdrawn') {
    return (
      <section className="receipt" data-testid="card.receipt" data-state="withdrawn">
        <p className="state state--quiet" data-testid="card.receipt-status">
          <IconUndo size={18} />
          {t('outcome.withdrawn')}
          {view.withdrawnReason ? ` — ${view.withdrawnReason}` : ''}
        </p>
        {local ? <YourAnswer view={view} local={local} /> : null}
      </section>
    );
  }
  if (!local) return null;
  const failed = local.phase === 'failed';
  const sending = local.phase === 'sending' || (local.phase === 'queued' && online);
  return (
    <section
      className="receipt"
      data-testid="card.receipt"
      data-state={failed ? 'failed' : sending ? 'sending' : 'queued'}
    >
      <p className={`state ${failed ? 'state--danger' : 'state--queued'}`} data-testid="card.receipt-status">
        {failed ? <IconAlert size={18} /> : sending ? <IconRefresh size={18} /> : <IconCloudOff size={18} />}
        {failed
          ? t('error.generic', { message: local.error ?? '' })
          : local.retryReason !== undefined
            ? t('receipt.retrying', { message: local.retryReason })
            : sending
              ? t('receipt.sending')
              : t('receipt.queued')}
      </p>
      <Sent view={view} response={local.response} />
    </section>
  );
}

/** "Answered by Ana Lima on Pixel 8 at 14:02" under this device's own receipt, on a team hub only (R21.22). */
function AnsweredBy({ view, resolution }: { view: InteractionView; resolution: InteractionResolution }) {
  const { t, lang } = useI18n();
  const text = resolvedByText(view, resolution, t, lang);
  if (!text) return null;
  return (
    <p className="state state--quiet" data-testid="card.receipt-by">
      <IconPerson size={18} />
      {text}
    </p>
  );
}

/** What was answered: a form's accept says its values (R18.4), the rest as ResponseBody says them. */
function Sent({ view, response }: { view: InteractionView; response: InteractionResponse }) {
  if (view.kind === 'form' && response.action === 'accept') return <FormResponse view={view} response={response} />;
  return <ResponseBody view={view} response={response} />;
}

/** Why the host refused this device's answer (R10.4); shown above the form so it can be corrected. */
export function SendError({ message }: { message: string | undefined }) {
  const { t } = useI18n();
  return (
    <p className="state state--danger" role="alert" data-testid="card.send-error">
      <IconAlert size={18} />
      {t('error.generic', { message: message ?? '' })}
    </p>
  );
}

/** What this device's user wrote, kept readable after losing the race (R9.8). */
export function YourAnswer({ view, local }: { view: InteractionView; local: Pick<LocalAnswer, 'response'> }) {
  const { t } = useI18n();
  return (
    <div className="receipt__yours" data-testid="card.your-answer">
      <h3 className="receipt__yours-title">{t('receipt.yourAnswer')}</h3>
      <Sent view={view} response={local.response} />
    </div>
  );
}
