'use client';
import { type InteractionResolution, type InteractionResponse, type InteractionView } from '@/lib/contracts';
import { type Lang, type Translate } from '@/lib/client/i18n';
import { formatClock } from '@/lib/client/format';
import { type LocalAnswer } from '@/lib/client/store';
import { IconAlert, IconCheck, IconCheckDouble, IconCloudOff, IconRefresh, IconUndo } from '../icons';
import { AnswerSummary } from './answer-summary';

interface Props {
  view: InteractionView;
  local: LocalAnswer | undefined;
  myDeviceId: string | null;
  online: boolean;
  t: Translate;
  lang: Lang;
}

export function isMine(resolution: InteractionResolution, local: LocalAnswer | undefined, myDeviceId: string | null) {
  if (local && resolution.clientResponseId === local.clientResponseId) return true;
  return myDeviceId !== null && resolution.device?.id === myDeviceId && resolution.resolvedBy === 'user';
}

function byWhom(resolution: InteractionResolution, t: Translate): string {
  if (resolution.resolvedBy === 'auto') return t('by_auto');
  if (resolution.resolvedBy === 'runtime') return t('by_agent');
  return resolution.device?.label ? `${t('by_other_device')} (${resolution.device.label})` : t('by_other_device');
}

/** What a response said, readable (answers, decline reason, approval). */
export function ResponseBody({
  view,
  response,
  t,
}: {
  view: InteractionView;
  response: InteractionResponse;
  t: Translate;
}) {
  if (response.action === 'decline') {
    const label =
      view.kind === 'plan-approval' ? t('h_rejected') : view.kind === 'permission' ? t('h_denied') : t('h_declined');
    return (
      <p className="receipt__line" data-testid="response.declined">
        {label}
        {response.message ? ` — ${response.message}` : ''}
      </p>
    );
  }
  if (response.action === 'cancel') return <p className="receipt__line">{t('h_cancelled')}</p>;
  if (view.kind === 'plan-approval') return <p className="receipt__line">{t('h_approved')}</p>;
  if (view.kind === 'permission') return <p className="receipt__line">{t('h_allowed')}</p>;
  return (
    <AnswerSummary
      questions={view.input.questions}
      answers={response.content?.answers ?? {}}
      annotations={response.content?.annotations}
      t={t}
    />
  );
}

/** The card after submit: delivery state in words (delivery is always visible), in place of the form. */
export function Receipt({ view, local, myDeviceId, online, t, lang }: Props) {
  const resolution = view.resolution;
  if (view.status === 'resolved' && resolution && isMine(resolution, local, myDeviceId)) {
    return (
      <section className="receipt" data-testid="card.receipt" data-state={view.deliveredAt ? 'applied' : 'delivered'}>
        <p className="state state--ok" data-testid="card.receipt-status">
          <IconCheck size={18} />
          {t('answered_delivered', { time: formatClock(resolution.resolvedAt, lang) })}
        </p>
        {view.deliveredAt ? (
          <p className="state state--ok" data-testid="card.receipt-applied">
            <IconCheckDouble size={18} />
            {t('applied')}
          </p>
        ) : null}
        <ResponseBody view={view} response={resolution.response} t={t} />
      </section>
    );
  }
  if (view.status === 'resolved' && resolution) {
    return (
      <section className="receipt" data-testid="card.receipt" data-state="lost">
        <p className="state state--quiet" data-testid="card.receipt-status">
          <IconAlert size={18} />
          {t('lost_race', { by: byWhom(resolution, t), time: formatClock(resolution.resolvedAt, lang) })}
        </p>
        <ResponseBody view={view} response={resolution.response} t={t} />
        {local ? <YourAnswer view={view} local={local} t={t} /> : null}
      </section>
    );
  }
  if (view.status === 'withdrawn') {
    return (
      <section className="receipt" data-testid="card.receipt" data-state="withdrawn">
        <p className="state state--quiet" data-testid="card.receipt-status">
          <IconUndo size={18} />
          {t('h_withdrawn')}
          {view.withdrawnReason ? ` — ${view.withdrawnReason}` : ''}
        </p>
        {local ? <YourAnswer view={view} local={local} t={t} /> : null}
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
        {failed ? t('error_generic', { message: local.error ?? '' }) : sending ? t('sending') : t('queued')}
      </p>
      <ResponseBody view={view} response={local.response} t={t} />
    </section>
  );
}

/** Why the host refused this device's answer (R10.4); shown above the form so it can be corrected. */
export function SendError({ message, t }: { message: string | undefined; t: Translate }) {
  return (
    <p className="state state--danger" role="alert" data-testid="card.send-error">
      <IconAlert size={18} />
      {t('error_generic', { message: message ?? '' })}
    </p>
  );
}

/** What this device's user wrote, kept readable after losing the race (R9.8). */
export function YourAnswer({
  view,
  local,
  t,
}: {
  view: InteractionView;
  local: Pick<LocalAnswer, 'response'>;
  t: Translate;
}) {
  return (
    <div className="receipt__yours" data-testid="card.your-answer">
      <h3 className="receipt__yours-title">{t('your_answer')}</h3>
      <ResponseBody view={view} response={local.response} t={t} />
    </div>
  );
}
