import {
  AGENT_INPUT_RULES,
  FINISHED_TURN_REPLY_MAX,
  BLANK_ANSWER_MESSAGE,
  CLAUDE_CODE_INPUT_RULES,
  formValuesProblem,
  splitClaudeCodeLabels,
  numberAnswerProblem,
  UNKNOWN_QUESTION_MESSAGE,
  type InteractionResponse,
  type InteractionView,
} from '../contracts';

/**
 * Checks a (schema-valid) response against the interaction's own input (R5.4,
 * R10.4). Returns why it is refused, or null. Answers need not be option labels:
 * "Other" is always offered, so any non-blank text is a legal answer, unless the
 * agent takes its options only (R18.5).
 */
export function validateResponseFor(view: InteractionView, response: InteractionResponse): string | null {
  // A finished turn is replied to or dismissed (cancel): a decline would mean nothing to the agent (R19.4).
  if (response.action === 'decline' && view.kind === 'finished-turn') return 'Dismiss a finished turn with cancel';
  if (response.action !== 'accept') return null;
  const content = response.content;
  if (view.kind === 'finished-turn') return finishedTurnProblem(view, content);
  // Only a finished turn's answer is a prompt (R19.4).
  if (content?.reply !== undefined) return `A ${view.kind} is not answered with a reply`;
  switch (view.kind) {
    case 'question':
      return questionProblem(view, content);
    case 'approval': {
      if (content?.answers !== undefined || content?.values !== undefined)
        return 'An approval is accepted with the choice taken, not answers or values';
      const choice = view.input.choices.find((candidate) => candidate.id === content?.choice);
      if (!choice) return `Accepting an approval needs content.choice, one of: ${allowIds(view.input.choices)}`;
      if (choice.effect === 'deny' || choice.effect === 'cancel')
        return `"${choice.id}" does not allow: decline or cancel instead`;
      return null;
    }
    case 'form': {
      if (content?.answers !== undefined || content?.choice !== undefined)
        return 'A form is accepted with its values, not answers or a choice';
      if (view.input.mode === 'url') return content?.values === undefined ? null : 'A page to open takes no values';
      return formValuesProblem(view.input.fields, content?.values ?? {});
    }
    case 'plan-approval':
    case 'permission':
      return content === undefined ? null : `A ${view.kind} is accepted without answers or annotations`;
  }
}

/** A finished turn is answered with the session's next prompt: plain, non-blank text, where the agent takes one (R19.4). */
function finishedTurnProblem(
  view: Extract<InteractionView, { kind: 'finished-turn' }>,
  content: Extract<InteractionResponse, { action: 'accept' }>['content'],
): string | null {
  if (view.input.reply === 'none') return "This agent's editor owns its prompt: a finished turn here takes no reply";
  if (content?.answers !== undefined || content?.annotations !== undefined)
    return 'A finished turn is answered with a reply, not answers';
  if (content?.choice !== undefined || content?.values !== undefined)
    return 'A finished turn is answered with a reply, not a choice or values';
  if (content?.reply === undefined) return 'Answering a finished turn needs content.reply (cancel to dismiss it)';
  if (content.reply.trim() === '') return 'A reply must not be blank';
  if (content.reply.length > FINISHED_TURN_REPLY_MAX)
    return `A reply must be at most ${FINISHED_TURN_REPLY_MAX} characters`;
  return null;
}

function allowIds(choices: readonly { id: string; effect: string }[]): string {
  return choices
    .filter((choice) => choice.effect !== 'deny' && choice.effect !== 'cancel')
    .map((choice) => `"${choice.id}"`)
    .join(', ');
}

function questionProblem(
  view: Extract<InteractionView, { kind: 'question' }>,
  content: Extract<InteractionResponse, { action: 'accept' }>['content'],
): string | null {
  if (content?.answers === undefined) {
    return 'Accepting a question needs content.answers (send {} to skip every question)';
  }
  if (content.choice !== undefined || content.values !== undefined) return 'A question is accepted with answers only';
  const texts = new Set(view.input.questions.map((question) => question.question));
  for (const [key, answer] of Object.entries(content.answers)) {
    if (!texts.has(key)) return `${UNKNOWN_QUESTION_MESSAGE}: "${truncate(key)}"`;
    if (answer.trim().length === 0) return `${BLANK_ANSWER_MESSAGE}: "${truncate(key)}"`;
  }
  if (view.inputRules === CLAUDE_CODE_INPUT_RULES || view.inputRules === AGENT_INPUT_RULES) {
    for (const question of view.input.questions) {
      const answer = Object.hasOwn(content.answers, question.question) ? content.answers[question.question] : undefined;
      if (typeof answer !== 'string') continue;
      // A number question's answer is what Claude Code reads as a number in range (R11.2).
      const problem =
        question.kind === 'number' ? numberAnswerProblem(answer, question) : onlyItsOptions(question, answer);
      if (problem !== null) return `${problem}: "${truncate(question.question)}"`;
    }
  }
  for (const key of Object.keys(content.annotations ?? {})) {
    if (!texts.has(key)) return `${UNKNOWN_QUESTION_MESSAGE} (annotations): "${truncate(key)}"`;
  }
  return null;
}

/** An agent that takes only its options (Codex's `isOther: false`) gets one of them, or several joined. */
function onlyItsOptions(
  question: { options: { label: string }[]; multiSelect: boolean; allowOther?: boolean },
  answer: string,
): string | null {
  if (question.allowOther !== false || question.options.length === 0) return null;
  const labels = new Set(question.options.map((option) => option.label));
  const chosen = question.multiSelect ? splitClaudeCodeLabels(answer) : [answer];
  return chosen !== null && chosen.every((label) => labels.has(label))
    ? null
    : 'This question takes only its options, no typed answer';
}

function truncate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
