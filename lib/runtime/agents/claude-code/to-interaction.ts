// How Claude Code's AskUserQuestion becomes an Askaway question, and an MCP form a form card (R18.2:
// to-interaction). Plans: plan-input.ts.
import { isRecord, type FormInput } from '../../../contracts';
import { formInputOf } from '../../mcp-form/form-input';
import { type ElicitationPayload } from './hook-payload';

function pick(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (record[key] !== undefined) picked[key] = record[key];
  return picked;
}

/** The question fields Claude Code 2.1.332 defines, the extended kinds included (sdk-tools.d.ts and its schema). */
const QUESTION_FIELDS = [
  'question',
  'header',
  'kind',
  'description',
  'multiSelect',
  'placeholder',
  'min',
  'max',
  'step',
  'defaultValue',
  'unit',
] as const;
const OPTION_FIELDS = ['label', 'description', 'preview'] as const;

/**
 * Claude Code's AskUserQuestion input reduced to the fields Claude Code defines
 * (R2.8, R11.5), for ClaudeCodeAskUserQuestionInputSchema, so a field Claude Code
 * adds later does not stop the question. Anything malformed is passed through for
 * the schema to name.
 */
export function toAskUserQuestionInput(toolInput: Record<string, unknown>): Record<string, unknown> {
  const questions = Array.isArray(toolInput.questions)
    ? toolInput.questions.map((question: unknown) => {
        if (!isRecord(question)) return question;
        const picked = pick(question, QUESTION_FIELDS);
        if (question.options !== undefined) {
          picked.options = Array.isArray(question.options)
            ? question.options.map((option: unknown) => (isRecord(option) ? pick(option, OPTION_FIELDS) : option))
            : question.options;
        }
        return picked;
      })
    : toolInput.questions;
  const input: Record<string, unknown> = { questions };
  if (toolInput.title !== undefined) input.title = toolInput.title;
  if (isRecord(toolInput.metadata) && typeof toolInput.metadata.source === 'string') {
    input.metadata = { source: toolInput.metadata.source };
  }
  return input;
}

/** An MCP server's form (or page to open) from the Elicitation hook, as the card shows it (R11.11, R18.4). */
export function toElicitationInput(payload: ElicitationPayload): FormInput | { unsupported: string } {
  return formInputOf({
    serverName: payload.mcp_server_name,
    message: payload.message,
    mode: payload.mode,
    requestedSchema: payload.requested_schema,
    url: payload.url,
  });
}
