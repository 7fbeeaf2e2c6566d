import { toAskUserQuestionDisplayModel } from '../askUserQuestion';
import { type AskUserQuestionAnnotations, type AskUserQuestionAnswers } from '../contracts';

/** One option as the card renders it. `label` is exact (it is what gets sent); `text` is what shows. */
export interface DisplayOption {
  label: string;
  text: string;
  recommended: boolean;
  description: string;
  preview?: string;
}

export interface DisplayQuestion {
  question: string;
  header: string;
  multiSelect: boolean;
  options: DisplayOption[];
  /** Previews only apply to single-select questions (R1.1). */
  hasPreview: boolean;
  /** Text of a legacy "Other"-like option, used as the custom box's placeholder. */
  customLabel?: string;
}

/**
 * The card's view of an interaction's questions, through the shared defensive
 * normalization (R9.5): legacy single-question shapes, a stray "Other" option
 * turned into the custom-input box, "(Recommended)" detected.
 */
export function toDisplayQuestions(input: unknown): DisplayQuestion[] {
  return toAskUserQuestionDisplayModel(input).questions.map((question) => ({
    question: question.question,
    header: question.header,
    multiSelect: question.multiSelect,
    hasPreview: question.hasPreview,
    ...(question.customInput.label === undefined ? {} : { customLabel: question.customInput.label }),
    options: question.options.map((option) => ({
      label: option.label,
      text: option.displayLabel,
      recommended: option.recommended,
      description: option.description,
      ...(option.preview === undefined ? {} : { preview: option.preview }),
    })),
  }));
}

/** What the user has done with one question so far. Kept across steps (R9.11). */
export interface QuestionDraft {
  selected: string[];
  otherSelected: boolean;
  otherText: string;
  note: string;
  skipped: boolean;
}

export const EMPTY_DRAFT: QuestionDraft = {
  selected: [],
  otherSelected: false,
  otherText: '',
  note: '',
  skipped: false,
};

export function chooseOption(question: DisplayQuestion, draft: QuestionDraft, label: string): QuestionDraft {
  if (!question.multiSelect) return { ...draft, selected: [label], otherSelected: false, skipped: false };
  const selected = draft.selected.includes(label)
    ? draft.selected.filter((item) => item !== label)
    : [...draft.selected, label];
  return { ...draft, selected, skipped: false };
}

export function chooseOther(question: DisplayQuestion, draft: QuestionDraft): QuestionDraft {
  if (!question.multiSelect) return { ...draft, selected: [], otherSelected: true, skipped: false };
  return { ...draft, otherSelected: !draft.otherSelected, skipped: false };
}

/**
 * The answer string for one question, or null when it has none (R2.9): single
 * select is the label or the typed text; multi select joins the chosen labels in
 * option order with ", " and appends the typed text. An empty "Other" is simply
 * no answer — it never cancels anything.
 */
export function answerFor(question: DisplayQuestion, draft: QuestionDraft): string | null {
  if (draft.skipped) return null;
  const other = draft.otherSelected ? draft.otherText.trim() : '';
  if (!question.multiSelect) {
    if (draft.otherSelected) return other === '' ? null : other;
    return draft.selected[0] ?? null;
  }
  const labels = question.options.map((option) => option.label).filter((label) => draft.selected.includes(label));
  if (other !== '') labels.push(other);
  return labels.length === 0 ? null : labels.join(', ');
}

/** The preview of the chosen option of a single-select question, if it has one. */
export function chosenPreview(question: DisplayQuestion, draft: QuestionDraft): string | undefined {
  if (question.multiSelect || draft.skipped || draft.otherSelected) return undefined;
  const label = draft.selected[0];
  return question.options.find((option) => option.label === label)?.preview;
}

export interface BuiltAnswers {
  answers: AskUserQuestionAnswers;
  annotations: AskUserQuestionAnnotations;
  answeredCount: number;
}

/** Skipped and unanswered questions are absent from `answers`; skip all → `{}` (R5.3). */
export function buildAnswers(questions: DisplayQuestion[], drafts: QuestionDraft[]): BuiltAnswers {
  const answers: AskUserQuestionAnswers = {};
  const annotations: AskUserQuestionAnnotations = {};
  questions.forEach((question, index) => {
    const draft = drafts[index] ?? EMPTY_DRAFT;
    const answer = answerFor(question, draft);
    if (answer !== null) answers[question.question] = answer;
    const preview = answer === null ? undefined : chosenPreview(question, draft);
    const notes = draft.note.trim();
    if (preview !== undefined || notes !== '') {
      annotations[question.question] = {
        ...(preview === undefined ? {} : { preview }),
        ...(notes === '' ? {} : { notes }),
      };
    }
  });
  return { answers, annotations, answeredCount: Object.keys(answers).length };
}
