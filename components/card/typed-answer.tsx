'use client';
import { useId } from 'react';
import { ASK_USER_QUESTION_MAX_TEXT } from '@/lib/contracts/limits';
import { useI18n } from '@/hooks/use-i18n';
import { numberValueProblem, type DisplayQuestion, type QuestionDraft } from '@/lib/client/question-model';
import '@/lib/client/i18n-en-card';

interface Props {
  question: DisplayQuestion;
  draft: QuestionDraft;
  onChange: (draft: QuestionDraft) => void;
}

/** Numbers as people read them in the UI language, without float noise. */
const show = (value: number) => String(Number(value.toFixed(10)));

/**
 * The answer box of Claude Code's extended kinds (R11.5): a text question gets a
 * labelled text area; a number question a field with the numeric keyboard, its
 * range and unit, − / + steps (the way to a negative number on keypads without a
 * minus key), and a message while the value cannot be sent.
 */
export function TypedAnswer({ question, draft, onChange }: Props) {
  const { t } = useI18n();
  const id = useId();
  if (question.kind === 'text' && question.secret) {
    // A secret (R18.5): a masked field that no password manager fills or saves.
    return (
      <label className="typed-answer">
        <span className="typed-answer__label">{t('question.secretAnswer')}</span>
        <input
          className="field"
          type="password"
          autoComplete="off"
          value={draft.value}
          maxLength={ASK_USER_QUESTION_MAX_TEXT}
          disabled={draft.skipped}
          onChange={(event) => onChange({ ...draft, value: event.target.value })}
          data-testid="card.text-input"
        />
      </label>
    );
  }
  if (question.kind === 'text') {
    return (
      <label className="typed-answer">
        <span className="typed-answer__label">{t('question.typedAnswer')}</span>
        <textarea
          className="field"
          rows={3}
          value={draft.value}
          placeholder={question.placeholder}
          maxLength={ASK_USER_QUESTION_MAX_TEXT}
          disabled={draft.skipped}
          onChange={(event) => onChange({ ...draft, value: event.target.value })}
          data-testid="card.text-input"
        />
      </label>
    );
  }
  const { min = 0, max = 0, step = 1, unit, defaultValue } = question;
  const problem = numberValueProblem(question, draft);
  const range = t('question.numberRange', { min: show(min), max: show(max) }) + (unit ? ` ${unit}` : '');
  const current = Number(draft.value.trim());
  const base = draft.value.trim() === '' || !Number.isFinite(current) ? undefined : current;
  const stepTo = (direction: 1 | -1) => {
    const from = base ?? defaultValue ?? (direction === 1 ? min - step : max + step);
    const next = Math.min(max, Math.max(min, from + direction * step));
    onChange({ ...draft, value: show(next) });
  };
  return (
    <div className="typed-answer">
      <label className="typed-answer__label" htmlFor={`${id}-number`}>
        {t('question.numberAnswer')}
      </label>
      <div className="number-field">
        <button
          type="button"
          className="button number-field__step"
          onClick={() => stepTo(-1)}
          disabled={draft.skipped || (base !== undefined && base <= min)}
          aria-label={t('question.numberLess')}
          data-testid="card.number-less"
        >
          −
        </button>
        <input
          id={`${id}-number`}
          className="field number-field__input"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={draft.value}
          placeholder={defaultValue === undefined ? undefined : show(defaultValue)}
          disabled={draft.skipped}
          aria-invalid={problem !== null}
          aria-describedby={`${id}-hint`}
          onChange={(event) => onChange({ ...draft, value: event.target.value })}
          data-testid="card.number-input"
        />
        <button
          type="button"
          className="button number-field__step"
          onClick={() => stepTo(1)}
          disabled={draft.skipped || (base !== undefined && base >= max)}
          aria-label={t('question.numberMore')}
          data-testid="card.number-more"
        >
          +
        </button>
        {unit ? <span className="number-field__unit">{unit}</span> : null}
      </div>
      <p id={`${id}-hint`} className="typed-answer__hint" data-invalid={problem ? 'true' : undefined}>
        {problem === 'number_invalid'
          ? t('question.numberInvalid')
          : problem === 'number_range'
            ? t('question.numberOutOfRange', { min: show(min), max: show(max) })
            : defaultValue === undefined
              ? range
              : `${range} · ${t('question.numberSuggested', { value: show(defaultValue) })}`}
      </p>
    </div>
  );
}
