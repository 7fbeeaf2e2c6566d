'use client';
import { useId, useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type FinishedTurnNoReply, type InteractionView } from '@/lib/contracts';
import { FINISHED_TURN_BUSY_REASON, NEWER_TURN_REASON } from '@/lib/contracts/finished-turn-words';
import { FINISHED_TURN_MESSAGE_MAX, FINISHED_TURN_REPLY_MAX } from '@/lib/contracts/limits';
import { agentOf } from '@/lib/contracts/agent-of';
import { submitResponse } from '@/lib/client/connection-loader';
import { formatClock, shortSessionId } from '@/lib/client/format';
import { type LocalAnswer } from '@/lib/client/store';
import { IconCheckDouble, IconUndo } from '../icons/outcomes';
import { IconAlert, IconCheck, IconRefresh } from '../icons/shell';
import { IconTerminal } from '../icons/terminal';
import { type CardProps } from './card-kinds';
import { CardFrame } from './card-frame';
import { NextAction } from './next-action';
import { PreviewText } from './preview-text';
import { isMine, Receipt, SendError } from './receipt';
import '@/lib/client/i18n-en-card';
import '@/lib/client/i18n-en-outcomes';
import '@/lib/client/i18n-en-turns';
import { type enTurnCard } from '@/lib/client/i18n-en-turn-card';
import '@/lib/client/i18n-en-turn-card';
import '@/app/styles/turn.css';

type TurnView = Extract<InteractionView, { kind: 'finished-turn' }>;

/** A message longer than this many lines or characters starts collapsed, with "Show all" (R19.10). */
const COLLAPSED_LINES = 6;
const COLLAPSED_CHARS = 480;

/** What the card says in place of the reply box, by why it takes none (R19.10, R19.50, R19.53, R19.55). */
const NO_REPLY_WORDS = {
  editor: 'turn.editorOwns',
  'not-away': 'turn.notAway',
  'switched-off': 'turn.switchedOff',
  'turn-failed': 'turn.turnFailed',
  'reply-limit': 'turn.replyLimit',
} as const satisfies Record<FinishedTurnNoReply, keyof typeof enTurnCard>;

/**
 * An agent finished its turn (R19): what it said last, and a reply that becomes its next prompt in the same session,
 * or Dismiss. Where it takes no reply (an editor owns the prompt, Claude Code did not wait) it says why instead.
 */
export function FinishedTurnCard({ view, local, myDeviceId, online }: CardProps<'finished-turn'>) {
  const { t } = useI18n();
  const [draft, setDraft] = useState('');
  const replyId = useId();
  const agent = agentOf(view).name;
  const refused = local?.phase === 'failed' ? local : undefined;
  const showForm = view.status === 'pending' && (!local || refused !== undefined);
  const takesReply = view.input.reply === 'prompt';
  const tooLong = draft.length > FINISHED_TURN_REPLY_MAX;

  if (!showForm) {
    return (
      <CardFrame view={view} actions={<NextAction view={view} />}>
        <TurnMessage view={view} />
        <TurnReceipt view={view} local={local} myDeviceId={myDeviceId} online={online} agent={agent} />
      </CardFrame>
    );
  }

  const send = () => {
    if (draft.trim() === '' || tooLong) return;
    void submitResponse(view.requestId, { action: 'accept', content: { reply: draft } });
  };
  const actions = (
    <div className="action-bar__buttons">
      <button
        type="button"
        className="button"
        onClick={() => void submitResponse(view.requestId, { action: 'cancel' })}
        data-testid="turn.dismiss"
      >
        {t('turn.dismiss')}
      </button>
      {takesReply ? (
        <button
          type="button"
          className="button button--primary button--grow"
          disabled={draft.trim() === '' || tooLong}
          onClick={send}
          data-testid="turn.send"
        >
          {t('turn.send')}
        </button>
      ) : null}
    </div>
  );

  return (
    <CardFrame view={view} actions={actions}>
      {refused ? <SendError message={refused.error} /> : null}
      <TurnMessage view={view} />
      {takesReply ? (
        <div className="turn-reply">
          <label className="typed-answer__label" htmlFor={replyId}>
            {t('turn.replyLabel', { agent })}
          </label>
          <textarea
            id={replyId}
            className="field turn-reply__box"
            rows={4}
            value={draft}
            aria-describedby={`${replyId}-hint`}
            aria-invalid={tooLong || undefined}
            onChange={(event) => setDraft(event.target.value)}
            data-testid="turn.reply"
          />
          <p id={`${replyId}-hint`} className="typed-answer__hint" data-invalid={tooLong ? 'true' : undefined}>
            {tooLong ? t('turn.tooLong', { max: FINISHED_TURN_REPLY_MAX, n: draft.length }) : t('turn.replyHint')}
          </p>
        </div>
      ) : (
        <p className="turn-editor" data-testid="turn.no-reply" data-reason={view.input.noReply ?? 'editor'}>
          {t(NO_REPLY_WORDS[view.input.noReply ?? 'editor'], { agent })}
        </p>
      )}
    </CardFrame>
  );
}

/** How the turn ended and the agent's last message, as a bounded text preview, collapsed when long (R19.10). */
function TurnMessage({ view }: { view: TurnView }) {
  const { t } = useI18n();
  const [expanded, setExpanded] = useState(false);
  const { status, message, error, clippedFrom } = view.input;
  const long =
    message !== undefined && (message.split('\n').length > COLLAPSED_LINES || message.length > COLLAPSED_CHARS);
  const title =
    status === 'completed'
      ? t('turn.completed')
      : status === 'interrupted'
        ? t('turn.interrupted')
        : error
          ? t('turn.failedWith', { reason: error })
          : t('turn.failed');
  return (
    <section className="turn" data-testid="turn">
      <h1 className={`turn__status turn__status--${status}`} data-testid="turn.status">
        {status === 'failed' ? <IconAlert size={20} /> : null}
        <span>{title}</span>
      </h1>
      <p className="turn__where" data-testid="turn.where">
        {[agentOf(view).name, view.context?.sessionTitle, t('common.session', { id: shortSessionId(view.sessionId) })]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {message === undefined ? (
        <p className="turn__none">{t('turn.noMessage')}</p>
      ) : (
        <div
          className="turn__message"
          data-collapsed={long && !expanded ? 'true' : undefined}
          data-testid="turn.message"
        >
          <PreviewText source={message} />
        </div>
      )}
      {long ? (
        <button
          type="button"
          className="button button--ghost turn__more"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
          data-testid="turn.show-all"
        >
          {expanded ? t('turn.showLess') : t('turn.showAll')}
        </button>
      ) : null}
      {clippedFrom !== undefined ? (
        <p className="turn__clipped" data-testid="turn.clipped">
          {t('turn.clipped', { n: clippedFrom, max: FINISHED_TURN_MESSAGE_MAX })}
        </p>
      ) : null}
    </section>
  );
}

interface ReceiptProps {
  view: TurnView;
  local: LocalAnswer | undefined;
  myDeviceId: string | null;
  online: boolean;
  agent: string;
}

/**
 * How the reply went (R19.5, R19.6): sent to the agent, answered in the terminal first, or refused because the agent
 * was already working (the reply kept, with Copy); anything else as every card says it.
 */
function TurnReceipt({ view, local, myDeviceId, online, agent }: ReceiptProps) {
  const { t, lang } = useI18n();
  const resolution = view.resolution ?? (local?.phase === 'accepted' ? local.resolution : undefined);
  const mine = resolution !== undefined && isMine(resolution, local, myDeviceId);
  const localReply = local?.response.action === 'accept' ? local.response.content?.reply : undefined;
  const reply =
    (resolution?.response.action === 'accept' ? resolution.response.content?.reply : undefined) ?? localReply;

  if (view.status === 'withdrawn' && view.terminalAnswer) {
    const editor = view.terminalAnswer.where === 'editor';
    return (
      <section className="receipt" data-testid="card.receipt" data-state="terminal">
        <p className="state state--quiet" data-testid="card.receipt-status">
          <IconTerminal size={18} />
          {view.withdrawnAt
            ? t(editor ? 'receipt.editor' : 'receipt.terminal', { time: formatClock(view.withdrawnAt, lang) })
            : t(editor ? 'outcome.editor' : 'outcome.terminal')}
        </p>
        {localReply ? <KeptReply text={localReply} /> : null}
      </section>
    );
  }
  if (view.status === 'withdrawn' && reply !== undefined && (mine || localReply !== undefined)) {
    // The reply won but was not sent: the agent had started other work (R19.6), or sending failed.
    const busy = view.withdrawnReason === FINISHED_TURN_BUSY_REASON;
    return (
      <section className="receipt" data-testid="card.receipt" data-state={busy ? 'busy' : 'not-sent'}>
        <p className="state state--danger" role="status" data-testid="card.receipt-status">
          <IconAlert size={18} />
          {busy ? t('turn.busy') : (view.withdrawnReason ?? t('outcome.withdrawn'))}
        </p>
        <p className="turn__hint">{t('turn.busyHint')}</p>
        <KeptReply text={reply} />
      </section>
    );
  }
  if (view.status === 'withdrawn' && view.withdrawnReason === NEWER_TURN_REASON) {
    return (
      <section className="receipt" data-testid="card.receipt" data-state="replaced">
        <p className="state state--quiet" data-testid="card.receipt-status">
          <IconUndo size={18} />
          {t('turn.replaced')}
        </p>
      </section>
    );
  }
  if (resolution && mine && view.status === 'resolved') {
    if (resolution.response.action !== 'accept') {
      return (
        <section className="receipt" data-testid="card.receipt" data-state="dismissed">
          <p className="state state--quiet" data-testid="card.receipt-status">
            <IconCheck size={18} />
            {t('turn.dismissed')}
          </p>
        </section>
      );
    }
    return (
      <section className="receipt" data-testid="card.receipt" data-state={view.deliveredAt ? 'sent' : 'sending'}>
        <p className="state state--ok" data-testid="card.receipt-status">
          {view.deliveredAt ? <IconCheckDouble size={18} /> : <IconRefresh size={18} />}
          {view.deliveredAt ? t('turn.sent', { agent }) : t('turn.sending', { agent })}
          {view.deliveredAt ? ` · ${formatClock(view.deliveredAt, lang)}` : ''}
        </p>
        <p className="receipt__line receipt__reply" data-testid="response.reply">
          {reply}
        </p>
      </section>
    );
  }
  return <Receipt view={view} local={local} myDeviceId={myDeviceId} online={online} />;
}

/** A reply that was not sent, kept readable and copyable (R19.6). */
function KeptReply({ text }: { text: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="receipt__yours turn-kept" data-testid="turn.kept-reply">
      <h2 className="receipt__yours-title">{t('turn.yourReply')}</h2>
      <p className="receipt__line receipt__reply" data-testid="turn.kept-text">
        {text}
      </p>
      <button type="button" className="button turn-kept__copy" onClick={copy} data-testid="turn.copy">
        {copied ? t('turn.copied') : t('turn.copy')}
      </button>
    </div>
  );
}
