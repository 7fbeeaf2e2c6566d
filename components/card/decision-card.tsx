'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type InteractionView } from '@/lib/contracts';
import { submitResponse } from '@/lib/client/connection-loader';
import { clipPermissionText, summarizePermission } from '@/lib/client/permission-summary';
import { type LocalAnswer } from '@/lib/client/store';
import { Countdown } from '../countdown';
import { IconAlert } from '../icons';
import { CardFrame } from './card-frame';
import { ConfirmDialog } from './confirm-dialog';
import { Markdown } from './markdown';
import { NextAction } from './next-action';
import { Receipt, SendError } from './receipt';
import '@/lib/client/i18n-en-card';
import '@/app/styles/decision.css';

type DecisionView = Extract<InteractionView, { kind: 'plan-approval' | 'permission' }>;

interface Props {
  view: DecisionView;
  local: LocalAnswer | undefined;
  myDeviceId: string | null;
  online: boolean;
  clockOffsetMs: number;
}

/** Plan approval (Approve / Reject with feedback) and tool permission (Allow / Deny with a reason). */
export function DecisionCard({ view, local, myDeviceId, online, clockOffsetMs }: Props) {
  const { t } = useI18n();
  const [rejecting, setRejecting] = useState(false);
  // A refused answer changed nothing on the host: the buttons come back, with why.
  const refused = local?.phase === 'failed' ? local : undefined;
  const showForm = view.status === 'pending' && (!local || refused !== undefined);
  const plan = view.kind === 'plan-approval';

  const body = plan ? <PlanBody view={view} /> : <PermissionBody view={view} />;

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
      <Countdown autoResolution={view.autoResolution} clockOffsetMs={clockOffsetMs} showWaiting />
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

/** The plan, or, when Claude Code sent none, a note that still lets the person decide. */
function PlanBody({ view }: { view: Extract<InteractionView, { kind: 'plan-approval' }> }) {
  const { t } = useI18n();
  const { plan, planFilePath } = view.input;
  return (
    <section className="decision">
      <h1 className="decision__title">{t('plan.title')}</h1>
      {plan === undefined ? (
        <p className="decision__missing" data-testid="card.plan-missing">
          <IconAlert size={18} />
          <span>{planFilePath === undefined ? t('plan.missing') : t('plan.fileUnreadable')}</span>
        </p>
      ) : (
        <Markdown source={plan} />
      )}
      {planFilePath === undefined ? null : (
        <p className="decision__source" data-testid="card.plan-file">
          {t('plan.file')} <code className="decision__path">{planFilePath}</code>
        </p>
      )}
    </section>
  );
}

function PermissionBody({ view }: { view: Extract<InteractionView, { kind: 'permission' }> }) {
  const { t, lang } = useI18n();
  const [whole, setWhole] = useState(false);
  const summary = summarizePermission(view.toolName, view.input);
  // A huge input (deep, pretty-printed) would take seconds to lay out: a screenful first, the rest on a tap.
  const { shown, clipped } = clipPermissionText(summary.text);
  const label =
    summary.kind === 'command'
      ? t('permission.command')
      : summary.kind === 'file'
        ? t('permission.file')
        : t('permission.input');
  return (
    <section className="decision">
      <h1 className="decision__title">{t('permission.title', { tool: view.toolName })}</h1>
      {summary.description ? <p className="decision__description">{summary.description}</p> : null}
      <h2 className="decision__label">{label}</h2>
      <pre className="code-box" data-testid="card.permission-input" tabIndex={0}>
        {whole ? summary.text : shown}
      </pre>
      {clipped && !whole ? (
        <button
          type="button"
          className="link-button"
          data-testid="card.permission-whole"
          onClick={() => setWhole(true)}
        >
          {t('permission.showWhole', { n: summary.text.length.toLocaleString(lang) })}
        </button>
      ) : null}
    </section>
  );
}
