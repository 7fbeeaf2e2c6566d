// How the phone's answer goes back to Claude Code in its own format (R18.2: to-answer).
import { isRecord, joinClaudeCodeLabels, type FormValues, type InteractionResponse } from '../../../contracts';
import { formContentProblem } from '../../mcp-form/form-content';
import { type ElicitationOutput, type ElicitationPayload } from './hook-payload';

/** Every ordered choice of labels (keeping option order), at most 2^4 - 1 of them. */
function orderedSubsets(labels: readonly string[]): string[][] {
  const subsets: string[][] = [];
  for (let mask = 1; mask < 1 << labels.length; mask += 1) {
    subsets.push(labels.filter((_, index) => (mask & (1 << index)) !== 0));
  }
  return subsets;
}

/**
 * A multi-select answer in the form Claude Code reads as chosen options (R2.9):
 * the phone joins a Claude Code question's labels that way already; an answer
 * joined the plain way (`A, B`) by another remote is rewritten when exactly one
 * choice of labels gives it. Anything else (typed text) is kept as it is.
 */
export function toClaudeCodeMultiSelectAnswer(labels: readonly string[], answer: string): string {
  const subsets = orderedSubsets(labels.slice(0, 4));
  if (subsets.some((subset) => joinClaudeCodeLabels(subset) === answer)) return answer;
  const plain = subsets.filter((subset) => subset.join(', ') === answer);
  return plain.length === 1 && plain[0] ? joinClaudeCodeLabels(plain[0]) : answer;
}

function optionLabels(question: Record<string, unknown>): string[] {
  if (!Array.isArray(question.options)) return [];
  return question.options.flatMap((option: unknown) =>
    isRecord(option) && typeof option.label === 'string' ? [option.label] : [],
  );
}

/** The answers as Claude Code expects them: multi-select choices joined by its rule. */
export function toClaudeCodeAnswers(
  toolInput: Record<string, unknown>,
  answers: Record<string, unknown>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...answers };
  const questions = Array.isArray(toolInput.questions) ? toolInput.questions : [];
  for (const question of questions) {
    if (!isRecord(question) || question.multiSelect !== true || typeof question.question !== 'string') continue;
    const answer = answers[question.question];
    if (typeof answer === 'string')
      result[question.question] = toClaudeCodeMultiSelectAnswer(optionLabels(question), answer);
  }
  return result;
}

/**
 * `updatedInput` replaces Claude Code's whole tool input (R11.2), so it echoes
 * what Claude Code sent and adds the answers (`{}` when every question was skipped).
 */
export function toUpdatedInput(toolInput: Record<string, unknown>, modifiedInput: unknown): Record<string, unknown> {
  const modified = isRecord(modifiedInput) ? modifiedInput : {};
  const updated: Record<string, unknown> = {
    ...toolInput,
    answers: isRecord(modified.answers) ? toClaudeCodeAnswers(toolInput, modified.answers) : {},
  };
  if (isRecord(modified.annotations)) updated.annotations = modified.annotations;
  else delete updated.annotations;
  return updated;
}

/** Question texts of Claude Code's input that got no answer. */
export function unansweredQuestions(toolInput: Record<string, unknown>, answers: Record<string, unknown>): string[] {
  const questions = Array.isArray(toolInput.questions) ? toolInput.questions : [];
  return questions.flatMap((question: unknown) => {
    if (!isRecord(question) || typeof question.question !== 'string') return [];
    const answer = answers[question.question];
    return typeof answer === 'string' && answer.trim() !== '' ? [] : [question.question];
  });
}

/**
 * The note a skipped question carries on the PermissionRequest path (R11.8, R4.4), which has no
 * `additionalContext`: Claude Code tells the model `"<question>"=(no option selected) notes: <this>`.
 */
export const SKIPPED_QUESTION_NOTE =
  'The user skipped this question. Use your best judgment; skipping is not a rejection, and do not invent a user preference.';

/**
 * The PermissionRequest hook's `updatedInput` (R11.8): as for PreToolUse, plus a note on each question that
 * got neither an answer nor a note of the person's, since that path has no `additionalContext` to say
 * that a skip is not a rejection (R4.4). Every question skipped (or auto-resolution) reads the same way.
 */
export function toDialogAnswer(toolInput: Record<string, unknown>, modifiedInput: unknown): Record<string, unknown> {
  const updated = toUpdatedInput(toolInput, modifiedInput);
  const answers = isRecord(updated.answers) ? updated.answers : {};
  const annotations: Record<string, unknown> = isRecord(updated.annotations) ? { ...updated.annotations } : {};
  let noted = false;
  for (const question of unansweredQuestions(toolInput, answers)) {
    const own = annotations[question];
    if (isRecord(own) && typeof own.notes === 'string' && own.notes.trim() !== '') continue;
    annotations[question] = { ...(isRecord(own) ? own : {}), notes: SKIPPED_QUESTION_NOTE };
    noted = true;
  }
  return noted ? { ...updated, annotations } : updated;
}

/**
 * The Elicitation hook's answer for the phone's response (R11.11): accept with the values (a page to open takes
 * none), decline or cancel as they are. Claude Code hands `content` to the MCP server unchecked, and the server
 * refuses content that misses its schema, so accepted values are checked against that schema first; `problem`
 * says why they cannot go (the hook then gives no decision, and Claude Code shows its own form).
 */
export function toElicitationOutput(
  payload: ElicitationPayload,
  response: InteractionResponse,
): ElicitationOutput | { problem: string } {
  const reply = (action: ElicitationOutput['hookSpecificOutput']['action'], content?: FormValues) => ({
    hookSpecificOutput: { hookEventName: 'Elicitation' as const, action, ...(content ? { content } : {}) },
  });
  if (response.action !== 'accept') return reply(response.action);
  if (payload.mode === 'url') return reply('accept');
  const values = response.content?.values ?? {};
  const problem = formContentProblem(payload.requested_schema, values);
  return problem === null ? reply('accept', values) : { problem };
}
