import {
  ASK_USER_QUESTION_MAX_NOTES,
  ASK_USER_QUESTION_MAX_PREVIEW,
  ASK_USER_QUESTION_MAX_TEXT,
  type AskUserQuestionAnnotation,
  type AskUserQuestionAnnotations,
  type AskUserQuestionAnswers,
  type AskUserQuestionInputLike,
  isRecord,
} from '../contracts';

/** What survives normalization: only fields the answered schema allows (R5.1). */
export interface NormalizedAskUserQuestionContent {
  answers?: AskUserQuestionAnswers;
  annotations?: AskUserQuestionAnnotations;
}

type Questions = Pick<AskUserQuestionInputLike, 'questions'>;
type Entries = Map<string, string>;

const LEGACY_POSITIONAL_KEY = /^answer_(\d{1,2})$/;

function questionTexts(input: Questions): string[] {
  return input.questions.map((question) => question.question);
}

function usableAnswer(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return value.length > ASK_USER_QUESTION_MAX_TEXT ? value.slice(0, ASK_USER_QUESTION_MAX_TEXT) : value;
}

// Own enumerable keys only, read without touching prototypes: content is untrusted.
function ownEntries(record: Record<string, unknown>): [string, unknown][] {
  return Object.keys(record).map((key) => [key, record[key]]);
}

/**
 * Answers keyed by question text (R5.2, R5.4): keys that are not question texts,
 * non-string and blank answers are dropped. Never throws.
 */
export function normalizeAskUserQuestionAnswers(input: Questions, answers: unknown): AskUserQuestionAnswers {
  const texts = new Set(questionTexts(input));
  const kept: Entries = new Map();
  if (isRecord(answers)) {
    for (const [key, value] of ownEntries(answers)) {
      const answer = usableAnswer(value);
      if (texts.has(key) && answer !== undefined) kept.set(key, answer);
    }
  }
  return Object.fromEntries(kept);
}

/** Legacy clients' answers by position (R5.2). Returns whether any legacy key was present. */
function foldLegacyAnswers(texts: string[], content: Record<string, unknown>, into: Entries): boolean {
  let present = false;
  const put = (index: number, value: unknown) => {
    const text = texts[index];
    const answer = usableAnswer(value);
    if (text !== undefined && answer !== undefined && !into.has(text)) into.set(text, answer);
  };
  for (const [key, value] of ownEntries(content)) {
    const match = LEGACY_POSITIONAL_KEY.exec(key);
    if (match?.[1] === undefined) continue;
    present = true;
    put(Number(match[1]), value);
  }
  if (Object.hasOwn(content, 'answer_index')) {
    present = true;
    const index = content.answer_index;
    if (typeof index === 'number' && Number.isInteger(index)) put(index, content.answer);
  } else if (Object.hasOwn(content, 'answer')) {
    present = true;
    // A bare `answer` is only unambiguous with one question.
    if (texts.length === 1) put(0, content.answer);
  }
  return present;
}

function normalizeAnnotation(value: unknown): AskUserQuestionAnnotation | undefined {
  if (!isRecord(value)) return undefined;
  const annotation: AskUserQuestionAnnotation = {};
  if (typeof value.preview === 'string' && value.preview.trim() !== '') {
    annotation.preview = value.preview.slice(0, ASK_USER_QUESTION_MAX_PREVIEW);
  }
  if (typeof value.notes === 'string' && value.notes.trim() !== '') {
    annotation.notes = value.notes.slice(0, ASK_USER_QUESTION_MAX_NOTES);
  }
  return annotation.preview === undefined && annotation.notes === undefined ? undefined : annotation;
}

function normalizeAnnotations(texts: Set<string>, value: unknown): AskUserQuestionAnnotations | undefined {
  if (!isRecord(value)) return undefined;
  const kept = new Map<string, AskUserQuestionAnnotation>();
  for (const [key, raw] of ownEntries(value)) {
    const annotation = texts.has(key) ? normalizeAnnotation(raw) : undefined;
    if (annotation) kept.set(key, annotation);
  }
  return kept.size === 0 ? undefined : Object.fromEntries(kept);
}

/**
 * What a client sent, reduced to `answers`/`annotations` keyed by question text
 * (R5.1–R5.4). `answers: {}` stays `{}` (the user skipped everything, R5.3);
 * content that is missing or not an object injects nothing (a legacy approve).
 * Never throws.
 */
export function normalizeAskUserQuestionResponseContent(
  input: Questions,
  content: unknown,
): NormalizedAskUserQuestionContent {
  if (!isRecord(content)) return {};
  const texts = questionTexts(input);
  const result: NormalizedAskUserQuestionContent = {};

  const hasAnswersObject = isRecord(content.answers);
  const answers: Entries = new Map(Object.entries(normalizeAskUserQuestionAnswers(input, content.answers)));
  const hasLegacy = foldLegacyAnswers(texts, content, answers);
  if (hasAnswersObject || hasLegacy) result.answers = Object.fromEntries(answers);

  const annotations = normalizeAnnotations(new Set(texts), content.annotations);
  if (annotations) result.annotations = annotations;
  return result;
}
