import { NO_ANSWERS_TEXT } from '../../../core';
import { unansweredQuestions } from './to-answer';

const QUESTION_CLIP = 80;

const clip = (text: string) => (text.length > QUESTION_CLIP ? `${text.slice(0, QUESTION_CLIP - 1)}…` : text);

/**
 * What the model should read beside Claude Code's own tool result when questions
 * went unanswered (R4.4 on the hook path). Claude Code 2.1.332 writes "The user
 * did not answer the questions." when none was answered, and lists only the
 * answered ones when some were: neither says that skipping is not a rejection,
 * nor names what was skipped. Undefined when everything was answered.
 */
export function skippedContext(toolInput: Record<string, unknown>, answers: unknown): string | undefined {
  const given = typeof answers === 'object' && answers !== null ? (answers as Record<string, unknown>) : {};
  const skipped = unansweredQuestions(toolInput, given);
  if (skipped.length === 0) return undefined;
  const total = Array.isArray(toolInput.questions) ? toolInput.questions.length : skipped.length;
  if (skipped.length >= total) return NO_ANSWERS_TEXT;
  const names = skipped.map((question) => `"${clip(question)}"`).join(', ');
  return (
    `The user skipped ${skipped.length} of your ${total} questions: ${names}. ` +
    'Use your best judgment for those; skipping is not a rejection, and do not invent user preferences.'
  );
}
