'use client';
import { useMemo, useRef, useState } from 'react';
import { useDrafts } from '@/hooks/use-drafts';
import { useI18n } from '@/hooks/use-i18n';
import { useMediaQuery, WIDE_QUERY } from '@/hooks/use-media-query';
import { type InteractionResponse, type InteractionView } from '@/lib/contracts';
import { submitResponse } from '@/lib/client/connection-loader';
import { buildAnswers, chooseOption, chooseOther, EMPTY_DRAFT, toDisplayModel } from '@/lib/client/question-model';
import { type LocalAnswer } from '@/lib/client/store';
import { agentDeadlineOf, Countdown } from '../countdown';
import { AnswerSummary } from './answer-summary';
import { CardFrame } from './card-frame';
import { CardMenu } from './card-menu';
import { ConfirmDialog } from './confirm-dialog';
import { NextAction } from './next-action';
import { Receipt, SendError, YourAnswer } from './receipt';
import { QuestionStep } from './question-step';
import '@/lib/client/i18n-en-card';

type QuestionView = Extract<InteractionView, { kind: 'question' }>;

interface Props {
  view: QuestionView;
  local: LocalAnswer | undefined;
  myDeviceId: string | null;
  online: boolean;
  clockOffsetMs: number;
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && target.type === 'text');
}

/** R9.3, R9.4, R9.11: stepped on a phone with a review, all at once on a wide screen. */
export function QuestionCard({ view, local, myDeviceId, online, clockOffsetMs }: Props) {
  const { t } = useI18n();
  const model = useMemo(() => toDisplayModel(view.input, view.inputRules), [view.input, view.inputRules]);
  const { questions, title } = model;
  const secret = useMemo(() => questions.map((question) => question.secret), [questions]);
  const { drafts, setDraft, clear } = useDrafts(view.requestId, questions.length, secret);
  const wide = useMediaQuery(WIDE_QUERY);
  const [step, setStep] = useState(0);
  const [dialog, setDialog] = useState<'skip-all' | 'decline' | null>(null);
  const top = useRef<HTMLDivElement>(null);

  const built = useMemo(() => buildAnswers(questions, drafts), [questions, drafts]);
  const touched = built.answeredCount > 0 || drafts.some((draft) => draft.skipped);
  // A number that cannot be sent keeps the form from being sent (the field says why).
  const ready = touched && built.invalid.length === 0;
  const count = questions.length;
  const stepped = !wide && count > 1;
  const reviewing = stepped && step >= count;
  // A refused answer changed nothing on the host: the form comes back, with why, to correct and resend.
  const refused = local?.phase === 'failed' ? local : undefined;
  const showForm = view.status === 'pending' && (!local || refused !== undefined);

  const send = (response: InteractionResponse) => {
    clear();
    void submitResponse(view.requestId, response);
  };
  const submit = () => {
    if (!ready) return;
    const content =
      Object.keys(built.annotations).length > 0
        ? { answers: built.answers, annotations: built.annotations }
        : { answers: built.answers };
    send({ action: 'accept', content });
  };
  const goTo = (next: number) => {
    setStep(next);
    top.current?.scrollIntoView({ block: 'start' });
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (!showForm || event.altKey || event.ctrlKey || event.metaKey) return;
    const typing = isTyping(event.target);
    if (!typing && /^[1-9]$/.test(event.key)) {
      const active = activeIndex(event.target);
      const question = questions[active];
      const draft = drafts[active];
      if (!question || !draft || draft.skipped || question.kind !== 'choice') return;
      const pick = Number(event.key) - 1;
      const option = question.options[pick];
      if (option) setDraft(active, chooseOption(question, draft, option.label));
      else if (pick === question.options.length) setDraft(active, chooseOther(question, draft));
      event.preventDefault();
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey) return;
    if (
      event.target instanceof HTMLTextAreaElement ||
      event.target instanceof HTMLButtonElement ||
      event.target instanceof HTMLAnchorElement
    )
      return;
    event.preventDefault();
    if (stepped && !reviewing) {
      if (!built.invalid.includes(step)) goTo(step + 1);
    } else submit();
  };
  const activeIndex = (target: EventTarget | null): number => {
    if (stepped) return Math.min(step, count - 1);
    const fieldset = target instanceof Element ? target.closest('[data-testid="card.question"]') : null;
    return fieldset ? Number(fieldset.getAttribute('data-index')) : 0;
  };

  const menu = showForm ? (
    <CardMenu
      items={[
        { label: t('card.skipAll'), onSelect: () => setDialog('skip-all'), testId: 'card.skip-all' },
        { label: t('card.decline'), onSelect: () => setDialog('decline'), testId: 'card.decline', danger: true },
      ]}
    />
  ) : undefined;
  const stepper = stepped ? (
    <div className="stepper" data-testid="card.step" aria-live="polite">
      <span className="stepper__label">{reviewing ? t('card.review') : t('card.step', { i: step + 1, n: count })}</span>
      <span className="stepper__bar" aria-hidden="true">
        {questions.map((question, index) => (
          <span
            key={question.question}
            data-done={index < step ? 'true' : undefined}
            data-current={index === step ? 'true' : undefined}
          />
        ))}
      </span>
    </div>
  ) : null;

  if (!showForm) {
    const draftResponse: InteractionResponse | null =
      !local && touched
        ? { action: 'accept', content: { answers: built.answers, annotations: built.annotations } }
        : null;
    return (
      <CardFrame view={view} srTitle={questions[0]?.question} actions={<NextAction view={view} />}>
        <Receipt view={view} local={local} myDeviceId={myDeviceId} online={online} />
        {draftResponse ? <YourAnswer view={view} local={{ response: draftResponse }} /> : null}
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
        {stepped && step > 0 ? (
          <button type="button" className="button" onClick={() => goTo(step - 1)} data-testid="card.back">
            {t('card.back')}
          </button>
        ) : null}
        {stepped && !reviewing ? (
          <button
            type="button"
            className="button button--primary button--grow"
            onClick={() => goTo(step + 1)}
            disabled={built.invalid.includes(step)}
            data-testid="card.next"
          >
            {step === count - 1 ? t('card.review') : t('card.next')}
          </button>
        ) : (
          <button
            type="button"
            className="button button--primary button--grow"
            onClick={submit}
            disabled={!ready}
            data-testid="card.submit"
          >
            {t('card.submit')}
          </button>
        )}
      </div>
    </>
  );

  return (
    <CardFrame
      view={view}
      menu={menu}
      actions={actions}
      srTitle={title === undefined ? questions[0]?.question : undefined}
    >
      <div ref={top} className="card__form" onKeyDown={onKeyDown}>
        {title === undefined ? null : (
          <h1 className="card__title" data-testid="card.title">
            {title}
          </h1>
        )}
        {refused ? <SendError message={refused.error} /> : null}
        {stepper}
        {reviewing ? (
          <section aria-label={t('card.review')} data-testid="card.review">
            <h2 className="review__title">{t('card.review')}</h2>
            <AnswerSummary
              questions={questions}
              answers={built.answers}
              annotations={built.annotations}
              onEdit={(index) => goTo(index)}
              testId="card.review"
            />
          </section>
        ) : (
          questions.map((question, index) =>
            stepped && index !== step ? null : (
              <QuestionStep
                key={question.question}
                question={question}
                index={index}
                draft={drafts[index] ?? EMPTY_DRAFT}
                onChange={setDraft}
                step={stepped ? t('card.step', { i: index + 1, n: count }) : undefined}
              />
            ),
          )
        )}
      </div>
      <ConfirmDialog
        open={dialog === 'skip-all'}
        title={t('card.skipAllTitle')}
        hint={t('card.skipAllHint')}
        confirmLabel={t('card.skipAll')}
        cancelLabel={t('common.cancel')}
        testId="card.skip-all-dialog"
        onClose={() => setDialog(null)}
        onConfirm={() => {
          setDialog(null);
          send({ action: 'accept', content: { answers: {} } });
        }}
      />
      <ConfirmDialog
        open={dialog === 'decline'}
        title={t('card.declineTitle')}
        // What declining means for this agent when it is more than carrying on without an answer (R18.23).
        hint={view.context?.declineNote ?? t('card.declineHint')}
        reasonLabel={t('card.declineReason')}
        confirmLabel={t('card.declineConfirm')}
        cancelLabel={t('common.cancel')}
        danger
        testId="card.decline-dialog"
        onClose={() => setDialog(null)}
        onConfirm={(reason) => {
          setDialog(null);
          send(reason ? { action: 'decline', message: reason } : { action: 'decline' });
        }}
      />
    </CardFrame>
  );
}
