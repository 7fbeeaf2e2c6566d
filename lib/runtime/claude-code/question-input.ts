import { isRecord } from '../../contracts';

function pick(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (record[key] !== undefined) picked[key] = record[key];
  return picked;
}

/**
 * Claude Code's AskUserQuestion input reduced to the fields our strict schema
 * knows (R2.8), so a field Claude Code adds later does not stop the question.
 * Anything malformed is passed through for the schema to name.
 */
export function toAskUserQuestionInput(toolInput: Record<string, unknown>): Record<string, unknown> {
  const questions = Array.isArray(toolInput.questions)
    ? toolInput.questions.map((question: unknown) => {
        if (!isRecord(question)) return question;
        const picked = pick(question, ['question', 'header', 'multiSelect']);
        picked.multiSelect ??= false;
        picked.options = Array.isArray(question.options)
          ? question.options.map((option: unknown) =>
              isRecord(option) ? pick(option, ['label', 'description', 'preview']) : option,
            )
          : question.options;
        return picked;
      })
    : toolInput.questions;
  const input: Record<string, unknown> = { questions };
  if (isRecord(toolInput.metadata) && typeof toolInput.metadata.source === 'string') {
    input.metadata = { source: toolInput.metadata.source };
  }
  return input;
}

/**
 * `updatedInput` replaces Claude Code's whole tool input (R11.2), so it echoes
 * what Claude Code sent and adds the answers (`{}` when every question was skipped).
 */
export function toUpdatedInput(toolInput: Record<string, unknown>, modifiedInput: unknown): Record<string, unknown> {
  const modified = isRecord(modifiedInput) ? modifiedInput : {};
  const updated: Record<string, unknown> = {
    ...toolInput,
    answers: isRecord(modified.answers) ? modified.answers : {},
  };
  if (isRecord(modified.annotations)) updated.annotations = modified.annotations;
  else delete updated.annotations;
  return updated;
}
