import { type AskUserQuestionAnnotation, type AskUserQuestionAnsweredInput } from '../contracts';

/** R4.3: the text when the user skipped every question (or auto-resolution ran, R6.4). */
export const NO_ANSWERS_TEXT =
  'The user did not answer any of your questions. Continue using your best judgment; do not treat this as a rejection or invent a user preference.';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function formatAnswer(question: string, answer: string, annotation: AskUserQuestionAnnotation | undefined): string {
  let text = `"${question}"="${answer}"`;
  const preview = typeof annotation?.preview === 'string' ? annotation.preview.trim() : '';
  const notes = typeof annotation?.notes === 'string' ? annotation.notes.trim() : '';
  // R4.5: annotations ride along with the answer they explain.
  if (preview) text += ` selected preview:\n${preview}`;
  if (notes) text += ` user notes: ${notes}`;
  return text;
}

/**
 * The tool result text the model reads (R4.1–R4.5). Three tiers: all answered,
 * some answered, none answered. Skipping is never a rejection and silence is
 * never a preference (R4.4).
 */
export function formatModelContent(input: AskUserQuestionAnsweredInput): string {
  // Typed input, but callers outside TypeScript exist: malformed parts count as unanswered.
  const questions: unknown[] = Array.isArray(input?.questions) ? input.questions : [];
  const answers: Record<string, unknown> = isRecord(input?.answers) ? input.answers : {};
  const annotations: Record<string, unknown> = isRecord(input?.annotations) ? input.annotations : {};
  const answered: string[] = [];
  let skipped = 0;
  for (const item of questions) {
    const question = isRecord(item) && typeof item.question === 'string' ? item.question : undefined;
    const answer = question !== undefined && Object.hasOwn(answers, question) ? answers[question] : undefined;
    if (question === undefined || typeof answer !== 'string' || answer.trim() === '') {
      skipped += 1;
      continue;
    }
    const annotation = Object.hasOwn(annotations, question) ? annotations[question] : undefined;
    answered.push(
      formatAnswer(question, answer, isRecord(annotation) ? (annotation as AskUserQuestionAnnotation) : undefined),
    );
  }

  if (answered.length === 0) return NO_ANSWERS_TEXT;
  const list = answered.join(', ');
  if (skipped === 0) {
    return `User has answered your questions: ${list}. You can now continue with the user's answers in mind.`;
  }
  return `User answered some questions and skipped ${skipped}: ${list}. Use your best judgment for the unanswered questions; do not invent user preferences.`;
}
