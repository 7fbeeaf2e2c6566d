// The last check before a form's values go back to its MCP server (R11.11, R18.4).
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { type JsonSchemaType } from '@modelcontextprotocol/sdk/validation';
import { errorMessage, isRecord, type FormValues } from '../../contracts';

/**
 * Why `content` does not satisfy the `requestedSchema` the MCP server sent, or null. The same validator
 * (AJV with its formats) the official SDK's server applies to the answer: an agent that does not check what
 * a hook sends (Claude Code) would otherwise hand the server content it refuses, and the tool call fails
 * ("Elicitation response content does not match requested schema"). The host has checked the values against
 * the card's fields already; this also covers what the fields leave out, and a host that checked nothing.
 */
export function formContentProblem(requestedSchema: unknown, content: FormValues): string | null {
  if (!isRecord(requestedSchema)) return 'the form has no schema to check the answer against';
  let validate: ReturnType<AjvJsonSchemaValidator['getValidator']>;
  try {
    validate = new AjvJsonSchemaValidator().getValidator(requestedSchema as JsonSchemaType);
  } catch (error) {
    return `the form's schema cannot be checked (${errorMessage(error)})`;
  }
  const result = validate(content);
  return result.valid ? null : result.errorMessage;
}
