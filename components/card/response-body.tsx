'use client';
import { type InteractionResponse, type InteractionView } from '@/lib/contracts';
import { useI18n } from '@/hooks/use-i18n';
import { AnswerSummary } from './answer-summary';
import '@/app/styles/answers.css';
import '@/lib/client/i18n-en-prompts';
import '@/lib/client/i18n-en-outcomes';

// Apart from ./receipt.tsx: History shows what was answered, not how its delivery went.

/** What a response said, readable (answers, decline reason, approval). */
export function ResponseBody({ view, response }: { view: InteractionView; response: InteractionResponse }) {
  const { t } = useI18n();
  if (view.kind === 'finished-turn') {
    // A reply is shown as the plain text it is, never as HTML (R19.4).
    if (response.action !== 'accept') return <p className="receipt__line">{t('outcome.cancelled')}</p>;
    return (
      <p className="receipt__line receipt__reply" data-testid="response.reply">
        {response.content?.reply ?? ''}
      </p>
    );
  }
  if (response.action === 'decline') {
    const label =
      view.kind === 'plan-approval'
        ? t('outcome.rejected')
        : view.kind === 'permission'
          ? t('outcome.denied')
          : t('outcome.declined');
    return (
      <p className="receipt__line" data-testid="response.declined">
        {label}
        {response.message ? ` — ${response.message}` : ''}
      </p>
    );
  }
  if (response.action === 'cancel') return <p className="receipt__line">{t('outcome.cancelled')}</p>;
  if (view.kind === 'plan-approval') return <p className="receipt__line">{t('outcome.approved')}</p>;
  if (view.kind === 'permission') return <p className="receipt__line">{t('outcome.allowed')}</p>;
  if (view.kind === 'approval') {
    const choice = view.input.choices.find((candidate) => candidate.id === response.content?.choice);
    return <p className="receipt__line">{choice?.label ?? t('outcome.allowed')}</p>;
  }
  // What a form sent is ./form-values.tsx's, on the card's receipt (not History's first screen, R13.4).
  if (view.kind === 'form') return null;
  return (
    <AnswerSummary
      questions={view.input.questions}
      answers={response.content?.answers ?? {}}
      annotations={response.content?.annotations}
    />
  );
}
