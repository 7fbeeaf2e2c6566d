// The last check before a form's values go back to its MCP server (R11.11, R18.4, R12.12).
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { type JsonSchemaType } from '@modelcontextprotocol/sdk/validation';
import { errorMessage, isRecord, type FormValues } from '../../contracts';
import { schemaSubsetProblem } from './schema-subset';

/**
 * Why `content` does not satisfy the `requestedSchema` the MCP server sent, or null. The same validator
 * (AJV with its formats) the official SDK's server applies to the answer: an agent that does not check what
 * a hook sends (Claude Code) would otherwise hand the server content it refuses, and the tool call fails
 * ("Elicitation response content does not match requested schema"). The host has checked the values against
 * the card's fields already; this also covers what the fields leave out, and a host that checked nothing.
 * A schema outside MCP's subset never reaches AJV (R12.12): a `pattern` or a composition of them from
 * outside would run in the hub's process, and one regular expression can hold it for good.
 */
export function formContentProblem(requestedSchema: unknown, content: FormValues): string | null {
  if (!isRecord(requestedSchema)) return 'the form has no schema to check the answer against';
  const outside = schemaSubsetProblem(requestedSchema);
  if (outside !== null) return `the form's schema is not one the phone can check (${outside})`;
  let validate: ReturnType<AjvJsonSchemaValidator['getValidator']>;
  try {
    validate = new AjvJsonSchemaValidator().getValidator(requestedSchema as JsonSchemaType);
  } catch (error) {
    return `the form's schema cannot be checked (${errorMessage(error)})`;
  }
  const result = validate(content);
  return result.valid ? null : result.errorMessage;
}
