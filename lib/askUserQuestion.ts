// Defensive normalization of AskUserQuestion input for display (R9.5). Imported
// by the PWA: it must import contracts only, and it must never throw, because
// history may hold shapes older than today's strict schema.
import { isHtmlPreview } from './contracts/preview';
import { isRecord } from './contracts/unknown';

export interface AskUserQuestionDisplayOption {
  /** Exactly what the model sent; this is what an answer carries. */
  label: string;
  /** The label without a trailing "(Recommended)". */
  displayLabel: string;
  description: string;
  preview?: string;
  previewKind?: 'html' | 'text';
  recommended: boolean;
}

/** How the question is answered: pick options, type text, or give a number (Claude Code's extended kinds). */
export type AskUserQuestionDisplayKind = 'choice' | 'text' | 'number';

export interface AskUserQuestionDisplayQuestion {
  question: string;
  header: string;
  kind: AskUserQuestionDisplayKind;
  /** One helper line under the question (extended format); absent when empty. */
  description?: string;
  options: AskUserQuestionDisplayOption[];
  multiSelect: boolean;
  /** `text` questions: the empty box's placeholder. */
  placeholder?: string;
  /** `number` questions: the range, increment, starting value and unit. */
  min?: number;
  max?: number;
  step?: number;
  defaultValue?: number;
  unit?: string;
  /** R9.4: a single-select question with any preview uses the side-by-side layout. */
  hasPreview: boolean;
  /**
   * The free-text "Other" choice: present unless the agent takes only its options (R18.5); `label` is a
   * stripped option's text, as placeholder.
   */
  customInput: { enabled: boolean; label?: string };
  /** The answer is a secret (R18.5): typed masked, never shown afterwards. */
  secret: boolean;
}

export interface AskUserQuestionDisplayModel {
  /** One heading above the questions (extended format). */
  title?: string;
  questions: AskUserQuestionDisplayQuestion[];
  /** Answers and annotations already given (history), keyed by question text. */
  answers?: Record<string, string>;
  annotations?: Record<string, { preview?: string; notes?: string }>;
  /** Why nothing (or not everything) could be shown. */
  error?: string;
}

/** Labels that mean "let me type my own answer" (R9.5). */
export const CUSTOM_INPUT_LABEL = /其他|其它|自定义|填写|\b(?:other|custom|free[\s-]?text|specify)\b/i;
const RECOMMENDED_SUFFIX = /\s*\(recommended\)\s*$/i;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

export function isCustomInputLabel(label: string): boolean {
  return CUSTOM_INPUT_LABEL.test(label);
}

function toOption(raw: unknown): AskUserQuestionDisplayOption | null {
  const source = typeof raw === 'string' ? { label: raw } : raw;
  if (!isRecord(source)) return null;
  const label = text(source.label);
  if (label === '') return null;
  const option: AskUserQuestionDisplayOption = {
    label,
    displayLabel: label.replace(RECOMMENDED_SUFFIX, '') || label,
    description: text(source.description),
    recommended: RECOMMENDED_SUFFIX.test(label),
  };
  if (typeof source.preview === 'string' && source.preview.trim() !== '') {
    option.preview = source.preview;
    option.previewKind = isHtmlPreview(source.preview) ? 'html' : 'text';
  }
  return option;
}

const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

function kindOf(raw: Record<string, unknown>): AskUserQuestionDisplayKind {
  return raw.kind === 'text' || raw.kind === 'number' ? raw.kind : 'choice';
}

/** The number range of a `number` question; without a usable min < max it is read as a text question. */
function numberFields(raw: Record<string, unknown>): Partial<AskUserQuestionDisplayQuestion> | null {
  const min = finite(raw.min);
  const max = finite(raw.max);
  if (min === undefined || max === undefined || !(min < max)) return null;
  const fields: Partial<AskUserQuestionDisplayQuestion> = { min, max };
  const step = finite(raw.step);
  const defaultValue = finite(raw.defaultValue);
  if (step !== undefined && step > 0) fields.step = step;
  if (defaultValue !== undefined && defaultValue >= min && defaultValue <= max) fields.defaultValue = defaultValue;
  if (text(raw.unit) !== '') fields.unit = text(raw.unit);
  return fields;
}

function toQuestion(raw: unknown, options: DisplayOptions): AskUserQuestionDisplayQuestion | null {
  if (!isRecord(raw)) return null;
  const question = text(raw.question);
  if (question === '') return null;
  let kind = kindOf(raw);
  const numbers = kind === 'number' ? numberFields(raw) : null;
  if (kind === 'number' && numbers === null) kind = 'text';
  const seen = new Set<string>();
  const choices =
    kind !== 'choice'
      ? []
      : (Array.isArray(raw.options) ? raw.options : []).flatMap((item) => {
          const option = toOption(item);
          if (option === null || seen.has(option.label)) return [];
          seen.add(option.label);
          return [option];
        });
  // An agent may take only its options (Codex's isOther: false); a question with none always takes text.
  const customInput: AskUserQuestionDisplayQuestion['customInput'] = {
    enabled: raw.allowOther !== false || kind !== 'choice',
  };
  const last = choices.at(-1);
  // The strict contract forbids an Other option, but older data may have one: it becomes the typed-answer box.
  // Claude Code allows one, so on its questions an option labelled "Other" stays an option to pick.
  if (!options.keepOtherOptions && last !== undefined && isCustomInputLabel(last.label)) {
    choices.pop();
    customInput.label = last.displayLabel;
  }
  const multiSelect = kind === 'choice' && raw.multiSelect === true;
  const display: AskUserQuestionDisplayQuestion = {
    question,
    header: text(raw.header),
    kind,
    options: choices,
    multiSelect,
    hasPreview: !multiSelect && choices.some((option) => option.preview !== undefined),
    customInput,
    secret: raw.secret === true,
    ...(numbers ?? {}),
  };
  if (text(raw.description) !== '') display.description = text(raw.description);
  if (kind === 'text' && text(raw.placeholder) !== '') display.placeholder = text(raw.placeholder);
  return display;
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function annotationRecord(value: unknown): AskUserQuestionDisplayModel['annotations'] {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value).flatMap(([key, raw]) => {
    if (!isRecord(raw)) return [];
    const annotation: { preview?: string; notes?: string } = {};
    if (typeof raw.preview === 'string') annotation.preview = raw.preview;
    if (typeof raw.notes === 'string') annotation.notes = raw.notes;
    return [[key, annotation] as const];
  });
  return Object.fromEntries(entries);
}

function parseRaw(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

export interface DisplayOptions {
  /** Claude Code's questions (R11.5): an option labelled "Other" is an ordinary option, not the typed-answer box. */
  keepOtherOptions?: boolean;
}

/**
 * The display model of an AskUserQuestion input: the multi-question array or the
 * legacy single question (`question` + `options` at top level, options as strings
 * or `{label, description}`). Malformed input gives an `error` and no questions.
 */
export function toAskUserQuestionDisplayModel(raw: unknown, options: DisplayOptions = {}): AskUserQuestionDisplayModel {
  try {
    const source = parseRaw(raw);
    if (!isRecord(source)) return { questions: [], error: 'AskUserQuestion input is not an object' };
    const rawQuestions: unknown[] = Array.isArray(source.questions)
      ? source.questions
      : 'question' in source
        ? [source]
        : [];
    const seen = new Set<string>();
    const questions = rawQuestions.flatMap((item) => {
      const question = toQuestion(item, options);
      // Answers are keyed by question text, so a repeated text could not be answered separately.
      if (question === null || seen.has(question.question)) return [];
      seen.add(question.question);
      return [question];
    });
    const model: AskUserQuestionDisplayModel = { questions };
    if (text(source.title) !== '') model.title = text(source.title);
    const answers = stringRecord(source.answers);
    const annotations = annotationRecord(source.annotations);
    if (answers) model.answers = answers;
    if (annotations) model.annotations = annotations;
    if (questions.length === 0) model.error = 'AskUserQuestion input has no questions to show';
    else if (questions.length < rawQuestions.length) model.error = 'Some questions could not be shown';
    return model;
  } catch (error) {
    // Exotic objects (throwing getters, proxies) must not break the card.
    return { questions: [], error: error instanceof Error ? error.message : 'AskUserQuestion input could not be read' };
  }
}
