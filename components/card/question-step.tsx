'use client';
import { lazy, memo, Suspense, useId, useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { chooseOption, chooseOther, type DisplayQuestion, type QuestionDraft } from '@/lib/client/question-model';
import { ASK_USER_QUESTION_MAX_NOTES, ASK_USER_QUESTION_MAX_TEXT } from '@/lib/contracts/limits';
import { IconUndo } from '../icons/outcomes';
import { HeaderChip } from './header-chip';
import { PreviewPane } from './preview-pane';
import '@/lib/client/i18n-en-card';
import '@/app/styles/dialog.css';
import '@/lib/client/i18n-en-prompts';
import '@/lib/client/i18n-en-outcomes';

// Text and number questions (Claude Code's extended kinds, R11.5) are rare: their answer box loads with
// the first one shown, in a box of its height, so choice questions' first screen does not carry it (R13.4).
const TypedAnswer = lazy(() => import('./typed-answer').then((module) => ({ default: module.TypedAnswer })));

interface Props {
  question: DisplayQuestion;
  index: number;
  draft: QuestionDraft;
  onChange: (index: number, draft: QuestionDraft) => void;
  /** Shown above the question on the stepped phone layout. */
  step?: string;
}

/** One question: options as full-row targets, Other with its text box (or a text/number box), note, skip (R9.3). */
export const QuestionStep = memo(function QuestionStep({ question, index, draft, onChange, step }: Props) {
  const { t } = useI18n();
  const name = useId();
  const [focused, setFocused] = useState<string | null>(null);
  const [noteOpen, setNoteOpen] = useState(draft.note !== '');
  const inputType = question.multiSelect ? 'checkbox' : 'radio';
  const update = (next: QuestionDraft) => onChange(index, next);
  const previewLabel = focused ?? draft.selected[0] ?? question.options.find((o) => o.preview !== undefined)?.label;
  const previewOption = question.options.find((option) => option.label === previewLabel);

  const list = (
    <div className="options" role="presentation">
      {question.options.map((option, optionIndex) => {
        const checked = draft.selected.includes(option.label);
        return (
          <label
            key={option.label}
            className="option"
            data-checked={checked ? 'true' : undefined}
            data-testid="card.option"
            data-label={option.label}
            onMouseEnter={question.hasPreview ? () => setFocused(option.label) : undefined}
          >
            <input
              className="option__input"
              type={inputType}
              name={name}
              value={option.label}
              checked={checked}
              disabled={draft.skipped}
              onChange={() => update(chooseOption(question, draft, option.label))}
              onFocus={() => setFocused(option.label)}
              data-key={optionIndex + 1}
            />
            <span className="option__mark" aria-hidden="true" />
            <span className="option__body">
              <span className="option__label">
                {option.text}
                {option.recommended ? (
                  <span className="badge" data-testid="card.recommended">
                    {t('question.recommended')}
                  </span>
                ) : null}
              </span>
              {option.description === '' ? null : <span className="option__description">{option.description}</span>}
            </span>
          </label>
        );
      })}
      {question.allowOther ? (
        <label
          className="option option--other"
          data-checked={draft.otherSelected ? 'true' : undefined}
          data-testid="card.option-other"
        >
          <input
            className="option__input"
            type={inputType}
            name={name}
            value="__other__"
            checked={draft.otherSelected}
            disabled={draft.skipped}
            onChange={() => update(chooseOther(question, draft))}
            onFocus={() => setFocused(null)}
            data-key={question.options.length + 1}
          />
          <span className="option__mark" aria-hidden="true" />
          <span className="option__body">
            <span className="option__label">
              {question.hasOtherLikeOption ? t('question.otherOwn') : t('question.other')}
            </span>
          </span>
        </label>
      ) : null}
      {draft.otherSelected && question.secret ? (
        // A secret (R18.5): typed into a masked field that no password manager fills or saves.
        <input
          className="field other-input"
          type="password"
          autoComplete="off"
          aria-label={t('question.secretAnswer')}
          placeholder={t('question.secretAnswer')}
          value={draft.otherText}
          maxLength={ASK_USER_QUESTION_MAX_TEXT}
          onChange={(event) => update({ ...draft, otherText: event.target.value })}
          autoFocus={draft.otherText === ''}
          data-testid="card.other-input"
        />
      ) : draft.otherSelected ? (
        <textarea
          className="field other-input"
          rows={2}
          aria-label={t('question.otherPlaceholder')}
          placeholder={question.customLabel ?? t('question.otherPlaceholder')}
          value={draft.otherText}
          maxLength={ASK_USER_QUESTION_MAX_TEXT}
          onChange={(event) => update({ ...draft, otherText: event.target.value })}
          autoFocus={draft.otherText === ''}
          data-testid="card.other-input"
        />
      ) : null}
    </div>
  );

  return (
    <fieldset
      className="question"
      data-testid="card.question"
      data-index={index}
      data-skipped={draft.skipped ? 'true' : undefined}
    >
      <legend className="question__legend">
        {step ? <span className="sr-only">{step}. </span> : null}
        <HeaderChip header={question.header} />
        <span className="question__text">{question.question}</span>
        {question.description ? <span className="question__description">{question.description}</span> : null}
      </legend>
      {question.kind !== 'choice' ? (
        <Suspense fallback={<div className="typed-answer typed-answer--loading" aria-busy="true" />}>
          <TypedAnswer question={question} draft={draft} onChange={update} />
        </Suspense>
      ) : question.hasPreview ? (
        <div className="with-preview">
          {list}
          <PreviewPane option={previewOption} />
        </div>
      ) : (
        list
      )}
      <div className="question__extras">
        {question.secret ? null : noteOpen ? (
          <label className="note">
            <span className="note__label">{t('question.noteLabel')}</span>
            <textarea
              className="field"
              rows={2}
              value={draft.note}
              maxLength={ASK_USER_QUESTION_MAX_NOTES}
              onChange={(event) => update({ ...draft, note: event.target.value })}
              autoFocus={draft.note === ''}
              data-testid="card.note-input"
            />
          </label>
        ) : (
          <button type="button" className="link-button" onClick={() => setNoteOpen(true)} data-testid="card.add-note">
            + {t('question.addNote')}
          </button>
        )}
        <button
          type="button"
          className="link-button"
          aria-pressed={draft.skipped}
          onClick={() => update({ ...draft, skipped: !draft.skipped })}
          data-testid="card.skip"
        >
          {draft.skipped ? (
            <>
              <IconUndo size={16} /> {t('question.unskip')}
            </>
          ) : (
            t('question.skip')
          )}
        </button>
      </div>
      {draft.skipped ? (
        <p className="state state--quiet question__skipped" data-testid="card.skipped">
          {t('question.skipped')}
        </p>
      ) : null}
    </fieldset>
  );
});
