import { toAskUserQuestionDisplayModel, type AskUserQuestionDisplayKind } from '../askUserQuestion';
import { type AskUserQuestionAnnotations, type AskUserQuestionAnswers, type InputRules } from '../contracts';
import { isAgentRules, joinClaudeCodeLabels, normalizeNumberAnswer } from '../contracts/claude-code-answers';

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
  /** How it is answered: options (the default), typed text, or a number in a range. */
  kind: AskUserQuestionDisplayKind;
  /** One helper line under the question. */
  description?: string;
  multiSelect: boolean;
  options: DisplayOption[];
  /** Previews only apply to single-select questions (R1.1). */
  hasPreview: boolean;
  /** Text of a legacy "Other"-like option, used as the custom box's placeholder. */
  customLabel?: string;
  /** An option is labelled like "Other", so the typed-answer choice needs a clearer name. */
  hasOtherLikeOption: boolean;
  /** An agent's own question (R11.2): a multi-select answer joins as Claude Code joins it. */
  claudeCode: boolean;
  /** The typed "Other" answer is offered (not when the agent takes only its options, R18.5). */
  allowOther: boolean;
  /** Typed into masked fields and never shown afterwards (R18.5). */
  secret: boolean;
  placeholder?: string;
  min?: number;
  max?: number;
  step?: number;
  defaultValue?: number;
  unit?: string;
}

export interface DisplayQuestions {
  title?: string;
  questions: DisplayQuestion[];
}

const OTHER_LIKE = /其他|其它|\bother\b/i;

/**
 * The card's view of an interaction's questions, through the shared defensive
 * normalization (R9.5): legacy single-question shapes, a stray "Other" option
 * turned into the custom-input box (except on Claude Code's questions, where it
 * is an option like any other), "(Recommended)" detected.
 */
export function toDisplayModel(input: unknown, rules?: InputRules): DisplayQuestions {
  const claudeCode = isAgentRules(rules);
  const model = toAskUserQuestionDisplayModel(input, { keepOtherOptions: claudeCode });
  const questions = model.questions.map(({ customInput, options, ...question }): DisplayQuestion => ({
    ...question,
    claudeCode,
    allowOther: customInput.enabled,
    hasOtherLikeOption: options.some((option) => OTHER_LIKE.test(option.label)),
    ...(customInput.label === undefined ? {} : { customLabel: customInput.label }),
    options: options.map((option) => ({
      label: option.label,
      text: option.displayLabel,
      recommended: option.recommended,
      description: option.description,
      ...(option.preview === undefined ? {} : { preview: option.preview }),
    })),
  }));
  return model.title === undefined ? { questions } : { title: model.title, questions };
}

export function toDisplayQuestions(input: unknown, rules?: InputRules): DisplayQuestion[] {
  return toDisplayModel(input, rules).questions;
}

/** What the user has done with one question so far. Kept across steps (R9.11). */
export interface QuestionDraft {
  selected: string[];
  otherSelected: boolean;
  otherText: string;
  /** What was typed into a text or number question. */
  value: string;
  note: string;
  skipped: boolean;
}

export const EMPTY_DRAFT: QuestionDraft = {
  selected: [],
  otherSelected: false,
  otherText: '',
  value: '',
  note: '',
  skipped: false,
};

/** Why a number question's typed value cannot be sent, or null (empty counts as no answer). */
export function numberValueProblem(
  question: DisplayQuestion,
  draft: QuestionDraft,
): 'number_invalid' | 'number_range' | null {
  if (question.kind !== 'number' || draft.skipped || draft.value.trim() === '') return null;
  const normalized = normalizeNumberAnswer(draft.value);
  if (normalized === null) return 'number_invalid';
  const value = Number(normalized);
  if ((question.min !== undefined && value < question.min) || (question.max !== undefined && value > question.max)) {
    return 'number_range';
  }
  return null;
}

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
  if (question.kind === 'text') return draft.value.trim() === '' ? null : draft.value.trim();
  if (question.kind === 'number')
    return numberValueProblem(question, draft) ? null : normalizeNumberAnswer(draft.value);
  const other = draft.otherSelected ? draft.otherText.trim() : '';
  if (!question.multiSelect) {
    if (draft.otherSelected) return other === '' ? null : other;
    return draft.selected[0] ?? null;
  }
  const labels = question.options.map((option) => option.label).filter((label) => draft.selected.includes(label));
  if (other !== '') labels.push(other);
  if (labels.length === 0) return null;
  // Claude Code reads its own join (a label holding ", " or a quote is JSON-quoted) as the chosen options.
  return question.claudeCode ? joinClaudeCodeLabels(labels) : labels.join(', ');
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
  /** Indexes of questions whose typed value cannot be sent yet (a number out of range). */
  invalid: number[];
}

/** Skipped and unanswered questions are absent from `answers`; skip all → `{}` (R5.3). */
export function buildAnswers(questions: DisplayQuestion[], drafts: QuestionDraft[]): BuiltAnswers {
  const answers: AskUserQuestionAnswers = {};
  const annotations: AskUserQuestionAnnotations = {};
  const invalid: number[] = [];
  questions.forEach((question, index) => {
    const draft = drafts[index] ?? EMPTY_DRAFT;
    if (numberValueProblem(question, draft) !== null) invalid.push(index);
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
  return { answers, annotations, answeredCount: Object.keys(answers).length, invalid };
}
