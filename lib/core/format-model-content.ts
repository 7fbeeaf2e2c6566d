import { type AskUserQuestionAnnotation, type AskUserQuestionAnsweredInput } from '../contracts';

/** R4.3: the text when the user skipped every question (or auto-resolution ran, R6.4). */
export const NO_ANSWERS_TEXT =
  'The user did not answer any of your questions. Continue using your best judgment; do not treat this as a rejection or invent a user preference.';

function formatAnswer(question: string, answer: string, annotation: AskUserQuestionAnnotation | undefined): string {
  let text = `"${question}"="${answer}"`;
  const preview = annotation?.preview?.trim() ?? '';
  const notes = annotation?.notes?.trim() ?? '';
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
  const { answers, annotations = {} } = input;
  const answered: string[] = [];
  let skipped = 0;
  for (const { question } of input.questions) {
    // Own keys only: a question text such as "constructor" must not read Object.prototype.
    const answer = Object.hasOwn(answers, question) ? answers[question] : undefined;
    if (answer === undefined) {
      skipped += 1;
      continue;
    }
    answered.push(
      formatAnswer(question, answer, Object.hasOwn(annotations, question) ? annotations[question] : undefined),
    );
  }

  if (answered.length === 0) return NO_ANSWERS_TEXT;
  const list = answered.join(', ');
  if (skipped === 0) {
    return `User has answered your questions: ${list}. You can now continue with the user's answers in mind.`;
  }
  return `User answered some questions and skipped ${skipped}: ${list}. Use your best judgment for the unanswered questions; do not invent user preferences.`;
}
