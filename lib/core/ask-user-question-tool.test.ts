import { describe, expect, it } from 'vitest';
import { type AskUserQuestionAnsweredInput } from '../contracts';
import { ASK_USER_QUESTION_DESCRIPTION, ASK_USER_QUESTION_PLAN_MODE_NOTE } from './ask-user-question-description';
import { ANSWERS_REQUIRED_ERROR, askUserQuestionTool, parseAnsweredInput } from './ask-user-question-tool';
import { NO_ANSWERS_TEXT, formatModelContent } from './format-model-content';
import { questionsInput } from './test-fixtures';
import { ToolExecutionError } from './tool-types';

const answered = (answers: Record<string, string>, extra: Partial<AskUserQuestionAnsweredInput> = {}) => ({
  ...questionsInput(3),
  answers,
  ...extra,
});

describe('AskUserQuestion tool definition', () => {
  it('[R1.1] is named AskUserQuestion and tells the model when (not) to ask', () => {
    expect(askUserQuestionTool.name).toBe('AskUserQuestion');
    const text = ASK_USER_QUESTION_DESCRIPTION;
    expect(text).toContain("blocked on a decision that is genuinely the user's to make");
    expect(text).toContain('cannot resolve from the request, the code, or sensible defaults');
    expect(text).toContain('pick the obvious option, mention it in your response, and proceed');
    expect(text).toContain("whether the user's answer would change what you do next");
    expect(text).toContain('Users can always pick "Other"');
    expect(text).toContain('" (Recommended)"');
    expect(text).toContain('Previews are for single-select questions only');
    expect(askUserQuestionTool.description).toBe(text);
  });

  it('[R1.2] carries the plan-mode note', () => {
    expect(ASK_USER_QUESTION_DESCRIPTION).toContain(ASK_USER_QUESTION_PLAN_MODE_NOTE);
    for (const part of [
      'EnterPlanMode',
      'ExitPlanMode',
      'Is my plan ready?',
      'Should I proceed?',
      'cannot see your plan',
    ]) {
      expect(ASK_USER_QUESTION_PLAN_MODE_NOTE).toContain(part);
    }
  });

  it('[R1.3] has exactly the specified metadata', () => {
    expect(askUserQuestionTool.metadata).toEqual({
      readOnly: true,
      concurrentSafe: true,
      sideEffectScope: 'userInteraction',
      needsApproval: true,
      requiresUserInteraction: true,
      riskLevel: 'low',
      permissionKey: 'userInteraction.askQuestion',
      approvalReason: 'pauses execution to collect answers from the user',
    });
    expect(askUserQuestionTool.checkPermission?.(questionsInput(1))).toBe('ask');
  });
});

describe('AskUserQuestion handler gate', () => {
  it('[R3.5] refuses input without answers with the recoverable error', () => {
    const call = () => askUserQuestionTool.handler(questionsInput(1), { sessionId: 's' });
    expect(call).toThrow(ToolExecutionError);
    expect(call).toThrow(ANSWERS_REQUIRED_ERROR);
    expect(call).toThrow(expect.objectContaining({ recoverable: true }));
  });

  it('[R3.5] accepts answers: {} as a valid answered input', () => {
    expect(parseAnsweredInput({ ...questionsInput(1), answers: {} }).answers).toEqual({});
  });

  it('[R3.5] names the broken rule for answers that are present but invalid', () => {
    expect(() => parseAnsweredInput({ ...questionsInput(1), answers: { 'Nope?': 'x' } })).toThrow(/answers\.Nope\?/);
    expect(() => parseAnsweredInput({ ...questionsInput(1), answers: { 'Q1?': ' ' } })).toThrow(/must not be blank/);
  });

  it('[R3.5] handles malformed values with a typed error, never another exception', () => {
    for (const value of [null, undefined, 7, 'x', [], { questions: null, answers: {} }]) {
      expect(() => parseAnsweredInput(value)).toThrow(ToolExecutionError);
    }
  });

  it('[R3.4] returns the model text and the answered input it ran with', async () => {
    const input = { ...questionsInput(1), answers: { 'Q1?': 'Beta' } };
    const output = await askUserQuestionTool.handler(input, { sessionId: 's' });
    expect(output.content).toContain('"Q1?"="Beta"');
    expect(output.input).toEqual(input);
  });
});

describe('formatModelContent', () => {
  it('[R4.1] uses the all-answered form', () => {
    const text = formatModelContent(answered({ 'Q1?': 'Alpha (Recommended)', 'Q2?': 'Beta', 'Q3?': 'my own text' }));
    expect(text).toBe(
      'User has answered your questions: "Q1?"="Alpha (Recommended)", "Q2?"="Beta", "Q3?"="my own text". ' +
        "You can now continue with the user's answers in mind.",
    );
  });

  it('[R4.2] counts skipped questions and lists the given answers', () => {
    const text = formatModelContent(answered({ 'Q2?': 'Alpha, Beta' }));
    expect(text).toBe(
      'User answered some questions and skipped 2: "Q2?"="Alpha, Beta". ' +
        'Use your best judgment for the unanswered questions; do not invent user preferences.',
    );
  });

  it('[R4.3] has the none-answered text for answers: {}', () => {
    const text = formatModelContent(answered({}));
    expect(text).toBe(NO_ANSWERS_TEXT);
    expect(text).toContain(
      'Continue using your best judgment; do not treat this as a rejection or invent a user preference.',
    );
  });

  it('[R4.4] never suggests that skipping is rejecting or silence a preference', () => {
    const texts = [answered({}), answered({ 'Q1?': 'Beta' }), answered({ 'Q1?': 'a', 'Q2?': 'b', 'Q3?': 'c' })].map(
      formatModelContent,
    );
    for (const text of texts) {
      expect(text).not.toMatch(/\b(rejected|declined|denied|refused)\b/i);
      expect(text).not.toMatch(/prefers?\b|wants? you to/i);
    }
  });

  it('[R4.5] appends the selected preview and user notes to their answer', () => {
    const text = formatModelContent(
      answered(
        { 'Q1?': 'Beta', 'Q2?': 'Alpha (Recommended)' },
        { annotations: { 'Q1?': { preview: 'const beta = 1;', notes: 'keep it small' }, 'Q3?': { notes: 'ignored' } } },
      ),
    );
    expect(text).toContain('"Q1?"="Beta" selected preview:\nconst beta = 1; user notes: keep it small, "Q2?"=');
    expect(text).not.toContain('ignored');
    expect(text).toContain('skipped 1');
  });

  it('[R4.5] leaves out blank annotations', () => {
    const text = formatModelContent(
      answered({ 'Q1?': 'Beta' }, { annotations: { 'Q1?': { preview: ' ', notes: '' } } }),
    );
    expect(text).not.toContain('selected preview');
    expect(text).not.toContain('user notes');
  });
});
