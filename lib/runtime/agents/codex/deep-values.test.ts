// The places that turn an outside value into text are safe on their own (R12.18): whoever hands them a value
// nested thousands deep gets a clear refusal, never a stack overflow.
import { describe, expect, it } from 'vitest';
import { schemaSubsetProblem } from '../../mcp-form/schema-subset';
import { CODEX_PROMPT_METHODS } from './protocol';
import { elicitationFormParams, mcpToolApprovalParams } from './test-fixtures';
import { toCodexPrompt } from './to-interaction';

/** An object nested `depth` deep, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

const DEEP = nested(6_000);

describe('[R12.18] outside values nested thousands deep', () => {
  it('[R12.18] an MCP tool approval whose tool_params nest 6,000 deep stays in the terminal, saying why', () => {
    const params = { ...mcpToolApprovalParams, _meta: { ...mcpToolApprovalParams._meta, tool_params: DEEP } };
    expect(toCodexPrompt(CODEX_PROMPT_METHODS.elicitation, params, {})).toEqual({
      unsupported: 'an MCP tool call whose input nests deeper than 24 levels',
    });
  });

  it('[R12.18] tool_params inside the bound still reach the card as JSON text', () => {
    const params = { ...mcpToolApprovalParams, _meta: { ...mcpToolApprovalParams._meta, tool_params: nested(10) } };
    const prompt = toCodexPrompt(CODEX_PROMPT_METHODS.elicitation, params, {});
    expect(prompt).toMatchObject({ interaction: { input: { tool: { input: JSON.stringify(nested(10)) } } } });
  });

  it.each([
    [
      'a field type',
      { type: 'object', properties: { name: { type: DEEP } } },
      /type the phone cannot ask for \(\{…\}\)/,
    ],
    ['a format', { type: 'object', properties: { name: { type: 'string', format: [DEEP] } } }, /format .*\(\[…\]\)/],
    ['a rule value', { type: 'object', properties: { n: { type: 'number', minimum: DEEP } } }, /minimum: \{…\}/],
  ])('[R12.18] a form schema with %s nested 6,000 deep is refused with a short reason', (_what, schema, reason) => {
    expect(schemaSubsetProblem(schema)).toMatch(reason);
    const params = { ...elicitationFormParams, requestedSchema: schema };
    expect(toCodexPrompt(CODEX_PROMPT_METHODS.elicitation, params, {})).toEqual({
      unsupported: expect.stringMatching(reason) as unknown,
    });
  });
});
