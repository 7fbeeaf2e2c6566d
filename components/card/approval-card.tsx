'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { agentOf } from '@/lib/contracts/agent-of';
import { type ApprovalChoice, type ApprovalInput, type FileChange } from '@/lib/contracts';
import { submitResponse } from '@/lib/client/connection-loader';
import { clipPermissionText } from '@/lib/client/clip-text';
import { agentDeadlineOf, Countdown } from '../countdown';
import { type CardProps } from './card-kinds';
import { CardFrame } from './card-frame';
import { CardMenu } from './card-menu';
import { ConfirmDialog } from './confirm-dialog';
import { DiffView } from './diff-view';
import { NextAction } from './next-action';
import { Receipt, SendError } from './receipt';
import '@/lib/client/i18n-en-card';
import '@/lib/client/i18n-en-approval';
import '@/lib/client/i18n-en-prompts';
import '@/app/styles/decision.css';

const ALLOWS = new Set(['allow', 'allow-session', 'allow-always']);
const KIND_WORDS = {
  add: 'approval.kindAdd',
  delete: 'approval.kindDelete',
  update: 'approval.kindUpdate',
  move: 'approval.kindMove',
} as const;

/**
 * An agent asking to run a command, change files or widen its access (R18.3): what will run or change, the
 * agent's reason, and exactly the choices it offers. The first way to allow is the primary button; the others
 * sit above it with what they mean; Deny asks for an optional reason; a choice that stops the agent's turn
 * (Codex's cancel) is in the menu.
 */
export function ApprovalCard({ view, local, myDeviceId, online, clockOffsetMs }: CardProps<'approval'>) {
  const { t } = useI18n();
  const [dialog, setDialog] = useState<'deny' | 'cancel' | null>(null);
  const refused = local?.phase === 'failed' ? local : undefined;
  const showForm = view.status === 'pending' && (!local || refused !== undefined);
  const { choices } = view.input;
  const allows = choices.filter((choice) => ALLOWS.has(choice.effect));
  const deny = choices.find((choice) => choice.effect === 'deny');
  const cancel = choices.find((choice) => choice.effect === 'cancel');
  const [primary, ...others] = allows;
  const body = <ApprovalBody view={view} />;

  if (!showForm || !primary) {
    return (
      <CardFrame view={view} actions={<NextAction view={view} />}>
        {body}
        <Receipt view={view} local={local} myDeviceId={myDeviceId} online={online} />
      </CardFrame>
    );
  }

  const accept = (choice: ApprovalChoice) =>
    void submitResponse(view.requestId, { action: 'accept', content: { choice: choice.id } });
  const actions = (
    <>
      <Countdown
        autoResolution={view.autoResolution}
        clockOffsetMs={clockOffsetMs}
        showWaiting
        agent={agentDeadlineOf(view)}
      />
      {others.map((choice) => (
        <button
          key={choice.id}
          type="button"
          className="button button--block approval-choice"
          onClick={() => accept(choice)}
          data-testid="card.choice"
          data-choice={choice.id}
        >
          <span>{choice.label}</span>
          {choice.detail ? <span className="approval-choice__detail">{choice.detail}</span> : null}
        </button>
      ))}
      <div className="action-bar__buttons">
        {deny ? (
          <button type="button" className="button" onClick={() => setDialog('deny')} data-testid="card.reject">
            {deny.label}
          </button>
        ) : null}
        <button
          type="button"
          className="button button--primary button--grow"
          onClick={() => accept(primary)}
          data-testid="card.approve"
          data-choice={primary.id}
        >
          {primary.label}
        </button>
      </div>
    </>
  );
  const menu = cancel ? (
    <CardMenu
      items={[{ label: cancel.label, onSelect: () => setDialog('cancel'), testId: 'card.cancel', danger: true }]}
    />
  ) : undefined;

  return (
    <CardFrame view={view} menu={menu} actions={actions}>
      {refused ? <SendError message={refused.error} /> : null}
      {body}
      <ConfirmDialog
        open={dialog === 'deny'}
        title={t('approval.denyTitle')}
        hint={[deny?.detail, t('approval.denyHint')].filter(Boolean).join(' ')}
        reasonLabel={t('approval.denyReason')}
        confirmLabel={deny?.label ?? t('permission.deny')}
        cancelLabel={t('common.cancel')}
        danger
        testId="card.reject-dialog"
        onClose={() => setDialog(null)}
        onConfirm={(reason) => {
          setDialog(null);
          void submitResponse(view.requestId, reason ? { action: 'decline', message: reason } : { action: 'decline' });
        }}
      />
      {cancel ? (
        <ConfirmDialog
          open={dialog === 'cancel'}
          title={t('approval.cancelTitle', { label: cancel.label })}
          hint={cancel.detail}
          confirmLabel={t('approval.cancelConfirm', { label: cancel.label.toLowerCase() })}
          cancelLabel={t('common.cancel')}
          danger
          testId="card.cancel-dialog"
          onClose={() => setDialog(null)}
          onConfirm={() => {
            setDialog(null);
            void submitResponse(view.requestId, { action: 'cancel' });
          }}
        />
      ) : null}
    </CardFrame>
  );
}

function ApprovalBody({ view }: { view: CardProps<'approval'>['view'] }) {
  const { t } = useI18n();
  const input = view.input;
  return (
    <section className="decision" data-subject={input.subject}>
      <h1 className="decision__title">{title(input, view.toolName, t)}</h1>
      {input.reason ? (
        <figure className="approval-reason">
          <figcaption className="decision__label">{t('approval.reason', { agent: agentOf(view).name })}</figcaption>
          <blockquote className="approval-reason__text" data-testid="card.approval-reason">
            {input.reason}
          </blockquote>
        </figure>
      ) : null}
      {input.command !== undefined ? <Command command={input.command} cwd={input.cwd} /> : null}
      {input.command === undefined && input.cwd ? (
        <p className="decision__source">{t('approval.in', { cwd: input.cwd })}</p>
      ) : null}
      {input.tool?.input !== undefined ? <Command command={input.tool.input} /> : null}
      {input.scope && input.scope.length > 0 ? (
        <>
          <h2 className="decision__label">{t('approval.scope')}</h2>
          <ul className="approval-scope" data-testid="card.approval-scope">
            {input.scope.map((item) => (
              <li key={item}>
                <code>{item}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {input.changes && input.changes.length > 0 ? <Changes changes={input.changes} /> : null}
    </section>
  );
}

function title(input: ApprovalInput, toolName: string, t: ReturnType<typeof useI18n>['t']): string {
  switch (input.subject) {
    case 'command':
      return t('approval.command');
    case 'file-change':
      return t('approval.fileChange');
    case 'permissions':
      return t('approval.permissions');
    case 'tool':
      return t('approval.tool', { tool: input.tool?.name ?? toolName });
  }
}

/** The command line as it will run, a screenful first (a long one is one tap away), and where. */
function Command({ command, cwd }: { command: string; cwd?: string }) {
  const { t, lang } = useI18n();
  const [whole, setWhole] = useState(false);
  const { shown, clipped } = clipPermissionText(command);
  return (
    <>
      <pre className="code-box" data-testid="card.approval-command" tabIndex={0}>
        {whole ? command : shown}
      </pre>
      {clipped && !whole ? (
        <button type="button" className="link-button" onClick={() => setWhole(true)}>
          {t('permission.showWhole', { n: command.length.toLocaleString(lang) })}
        </button>
      ) : null}
      {cwd ? (
        <p className="decision__source" data-testid="card.approval-cwd">
          {t('approval.in', { cwd })}
        </p>
      ) : null}
    </>
  );
}

/** The files first (collapsed), each one's diff on a tap: the list says what changes at a glance. */
function Changes({ changes }: { changes: readonly FileChange[] }) {
  const { t } = useI18n();
  return (
    <>
      <h2 className="decision__label">
        {changes.length === 1 ? t('approval.oneFile') : t('approval.files', { n: changes.length })}
      </h2>
      <ul className="approval-files" data-testid="card.approval-files">
        {changes.map((change) => (
          <li key={change.path}>
            <details className="approval-file" open={changes.length === 1}>
              <summary className="approval-file__summary" data-testid="card.approval-file">
                <span className={`badge approval-file__kind approval-file__kind--${change.kind}`}>
                  {t(KIND_WORDS[change.kind])}
                </span>
                <code className="approval-file__path">{change.path}</code>
                {change.movePath ? (
                  <span className="approval-file__move">{t('approval.movedTo', { path: change.movePath })}</span>
                ) : null}
              </summary>
              {change.diff === undefined ? (
                <p className="decision__source">{t('approval.noDiff')}</p>
              ) : (
                <DiffView diff={change.diff} added={change.kind === 'add'} />
              )}
              {change.truncated ? <p className="decision__source">{t('approval.diffTruncated')}</p> : null}
            </details>
          </li>
        ))}
      </ul>
    </>
  );
}
