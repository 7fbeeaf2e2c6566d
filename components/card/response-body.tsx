'use client';
import { type InteractionResponse, type InteractionView } from '@/lib/contracts';
import { useI18n } from '@/hooks/use-i18n';
import { lazyPart } from '@/hooks/use-lazy-part';
import { AnswerSummary } from './answer-summary';
import '@/app/styles/answers.css';
import '@/lib/client/i18n-en-prompts';
import '@/lib/client/i18n-en-outcomes';

// Apart from ./receipt.tsx: History shows what was answered, not how its delivery went.

// A form's values show on few receipts and History rows: their list loads when one does (R13.4).
const formValues = lazyPart(() => import('./form-values').then((module) => module.FormValuesSummary));

/** What a response said, readable (answers, decline reason, approval). */
export function ResponseBody({ view, response }: { view: InteractionView; response: InteractionResponse }) {
  const { t } = useI18n();
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
  if (view.kind === 'form') {
    // What was sent (R18.4): the values field by field; a page's Done, or a form without fields, has none.
    const values = response.content?.values;
    if (view.input.mode === 'form' && view.input.fields.length > 0 && values)
      return <formValues.Slot fields={view.input.fields} values={values} />;
    return (
      <p className="receipt__line" data-testid="response.form">
        {t(view.input.mode === 'url' ? 'outcome.formDone' : 'outcome.formSent')}
      </p>
    );
  }
  return (
    <AnswerSummary
      questions={view.input.questions}
      answers={response.content?.answers ?? {}}
      annotations={response.content?.annotations}
    />
  );
}
