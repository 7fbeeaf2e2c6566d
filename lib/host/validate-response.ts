import {
  BLANK_ANSWER_MESSAGE,
  CLAUDE_CODE_INPUT_RULES,
  numberAnswerProblem,
  UNKNOWN_QUESTION_MESSAGE,
  type InteractionResponse,
  type InteractionView,
} from '../contracts';

/**
 * Checks a (schema-valid) response against the interaction's own input (R5.4,
 * R10.4). Returns why it is refused, or null. Answers need not be option labels:
 * "Other" is always offered, so any non-blank text is a legal answer.
 */
export function validateResponseFor(view: InteractionView, response: InteractionResponse): string | null {
  if (response.action !== 'accept') return null;
  if (view.kind !== 'question') {
    return response.content === undefined ? null : `A ${view.kind} is accepted without answers or annotations`;
  }
  const content = response.content;
  if (content?.answers === undefined) {
    return 'Accepting a question needs content.answers (send {} to skip every question)';
  }
  const texts = new Set(view.input.questions.map((question) => question.question));
  for (const [key, answer] of Object.entries(content.answers)) {
    if (!texts.has(key)) return `${UNKNOWN_QUESTION_MESSAGE}: "${truncate(key)}"`;
    if (answer.trim().length === 0) return `${BLANK_ANSWER_MESSAGE}: "${truncate(key)}"`;
  }
  if (view.inputRules === CLAUDE_CODE_INPUT_RULES) {
    // A number question's answer is what Claude Code reads as a number in range (R11.2).
    for (const question of view.input.questions) {
      const answer = Object.hasOwn(content.answers, question.question) ? content.answers[question.question] : undefined;
      const problem =
        question.kind === 'number' && typeof answer === 'string' ? numberAnswerProblem(answer, question) : null;
      if (problem !== null) return `${problem}: "${truncate(question.question)}"`;
    }
  }
  for (const key of Object.keys(content.annotations ?? {})) {
    if (!texts.has(key)) return `${UNKNOWN_QUESTION_MESSAGE} (annotations): "${truncate(key)}"`;
  }
  return null;
}

function truncate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
