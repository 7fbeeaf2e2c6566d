'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { submitResponse } from '@/lib/client/connection-loader';
import { agentDeadlineOf, Countdown } from '../countdown';
import { type CardProps } from './card-kinds';
import { CardFrame } from './card-frame';
import { ConfirmDialog } from './confirm-dialog';
import { NextAction } from './next-action';
import { Receipt, SendError } from './receipt';
import '@/lib/client/i18n-en-card';
import '@/app/styles/decision.css';

/** What the kind's card shows above the decision (./plan-card.tsx, ./permission-card.tsx). */
interface Props extends CardProps<'plan-approval' | 'permission'> {
  body: React.ReactNode;
}

/**
 * What plan approval (Approve / Reject with feedback) and tool permission (Allow / Deny with a reason) share:
 * the two answers, the reason dialog, the receipt. Each kind's card brings its body and loads on its own.
 */
export function DecisionCard({ view, local, myDeviceId, online, clockOffsetMs, body }: Props) {
  const { t } = useI18n();
  const [rejecting, setRejecting] = useState(false);
  // A refused answer changed nothing on the host: the buttons come back, with why.
  const refused = local?.phase === 'failed' ? local : undefined;
  const showForm = view.status === 'pending' && (!local || refused !== undefined);
  const plan = view.kind === 'plan-approval';

  if (!showForm) {
    return (
      <CardFrame view={view} actions={<NextAction view={view} />}>
        {body}
        <Receipt view={view} local={local} myDeviceId={myDeviceId} online={online} />
      </CardFrame>
    );
  }

  const actions = (
    <>
      <Countdown
        autoResolution={view.autoResolution}
        clockOffsetMs={clockOffsetMs}
        showWaiting
        agent={agentDeadlineOf(view)}
      />
      <div className="action-bar__buttons">
        <button type="button" className="button" onClick={() => setRejecting(true)} data-testid="card.reject">
          {plan ? t('plan.reject') : t('permission.deny')}
        </button>
        <button
          type="button"
          className="button button--primary button--grow"
          onClick={() => void submitResponse(view.requestId, { action: 'accept' })}
          data-testid="card.approve"
        >
          {plan ? t('plan.approve') : t('permission.allow')}
        </button>
      </div>
    </>
  );

  return (
    <CardFrame view={view} actions={actions}>
      {refused ? <SendError message={refused.error} /> : null}
      {body}
      <ConfirmDialog
        open={rejecting}
        title={plan ? t('plan.rejectTitle') : `${t('permission.deny')} ${view.toolName}?`}
        reasonLabel={plan ? t('plan.rejectFeedback') : t('permission.denyReason')}
        confirmLabel={plan ? t('plan.reject') : t('permission.deny')}
        cancelLabel={t('common.cancel')}
        danger
        testId="card.reject-dialog"
        onClose={() => setRejecting(false)}
        onConfirm={(reason) => {
          setRejecting(false);
          void submitResponse(view.requestId, reason ? { action: 'decline', message: reason } : { action: 'decline' });
        }}
      />
    </CardFrame>
  );
}
