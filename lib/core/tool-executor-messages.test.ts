import { describe, expect, it } from 'vitest';
import { askUserQuestionTool } from './ask-user-question-tool';
import { questionsInput } from './test-fixtures';
import { executeToolCall } from './tool-executor';
import { type PermissionBrokerPort } from './tool-types';

// No classic `zod` import in this file: classic registers English on first use and would hide a
// missing locale. The contracts are zod/mini, which has no messages of its own.
describe('executeToolCall error texts', () => {
  it('[R3.1] tells the model in words which built-in rule an invalid call broke', async () => {
    const broker: PermissionBrokerPort = { requestPermission: () => Promise.resolve({ decision: 'allow' }) };
    const input = questionsInput(1);
    const question = { ...input.questions[0], options: [{ label: 'x'.repeat(201), description: 'd' }] };
    const result = await executeToolCall({
      tool: askUserQuestionTool,
      input: { ...input, extra: 1, questions: [question] },
      sessionId: 's',
      broker,
    });
    expect(result).toMatchObject({ ok: false, recoverable: true });
    const error = result.ok ? '' : result.error;
    expect(error).toContain('questions[0].options: Too small: expected array to have >=2 items');
    expect(error).toContain('questions[0].options[0].label: Too big: expected string to have <=200 characters');
    expect(error).toContain('(root): Unrecognized key: "extra"');
    expect(error).not.toContain(': Invalid input');
  });
});
