import { describe, expect, it } from 'vitest';
import { AskUserQuestionInputSchema } from './ask-user-question';
import {
  ClaudeCodeAskUserQuestionInputSchema,
  joinClaudeCodeLabels,
  normalizeNumberAnswer,
  numberAnswerProblem,
} from './claude-code-question';
import { InteractionRequestSchema } from './interaction';

const choice = (overrides: Record<string, unknown> = {}) => ({
  question: 'Which deployment target?',
  header: 'A header longer than twelve',
  options: [
    { label: 'Fly.io', description: '' },
    { label: 'Other', description: 'Something else' },
  ],
  multiSelect: false,
  ...overrides,
});

const issues = (input: unknown) => {
  const parsed = ClaudeCodeAskUserQuestionInputSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('Claude Code question contract (hook path)', () => {
  it('[R11.5][R2.2] accepts what Claude Code accepts and the strict contract refuses', () => {
    const input = { questions: [choice()] };
    expect(issues(input)).toEqual([]);
    expect(AskUserQuestionInputSchema.safeParse(input).success).toBe(false);
    // Options without a description at all, and an empty header.
    expect(issues({ questions: [choice({ header: '', options: [{ label: 'A' }, { label: 'B' }] })] })).toEqual([]);
  });

  it('[R11.5] the extended kinds follow Claude Code rules', () => {
    const text = { question: 'What is it about?', header: 'Topic', kind: 'text', placeholder: 'One line' };
    const number = { question: 'How many?', header: 'Count', kind: 'number', min: 1, max: 9, step: 1, unit: 'x' };
    expect(issues({ title: 'Before I start', questions: [text, number, choice({ kind: 'choice' })] })).toEqual([]);
    expect(issues({ questions: [{ ...text, options: [{ label: 'A' }] }] })).toEqual([
      'questions.0.options: A "text" question takes no options',
    ]);
    expect(issues({ questions: [{ ...number, min: 9, max: 1 }] })).toEqual([
      'questions.0.min: A number question needs min and max with min < max',
    ]);
    expect(issues({ questions: [{ ...number, defaultValue: 20 }] })).toEqual([
      'questions.0.defaultValue: defaultValue must lie within min..max',
    ]);
    expect(issues({ questions: [{ ...text, min: 1 }] })).toEqual([
      'questions.0.min: min applies only to "number" questions',
    ]);
    expect(issues({ questions: [choice({ options: [{ label: 'Only' }] })] })).toEqual([
      'questions.0.options: A choice question needs 2-4 options',
    ]);
    expect(issues({ questions: [{ ...text, multiSelect: true }] })).toEqual([
      'questions.0.multiSelect: multiSelect applies only to choice questions',
    ]);
  });

  it('[R12.3] stays bounded and keyable: blank question or label, duplicates, oversize, unknown fields', () => {
    expect(issues({ questions: [choice({ question: '  ' })] })).toContain('questions.0.question: Must not be blank');
    expect(issues({ questions: [choice({ options: [{ label: 'A' }, { label: 'A' }] })] })).toEqual([
      'questions.0.options.1.label: Option labels must be unique within a question: "A"',
    ]);
    expect(issues({ questions: [choice(), choice()] })).toEqual([
      'questions.1.question: Question texts must be unique: "Which deployment target?"',
    ]);
    expect(issues({ questions: [choice({ header: 'h'.repeat(201) })] })).toHaveLength(1);
    expect(issues({ questions: [choice({ surprise: true })] })).toHaveLength(1);
    expect(
      issues({ questions: [choice({ options: [{ label: 'A', preview: '<script>x</script>' }, { label: 'B' }] })] }),
    ).toEqual(['questions.0.options.0.preview: Previews must not contain <script> or <style>']);
  });

  it('[R11.5][R10.4] an interaction carries the rules its question input follows; the strict rules stay the default', () => {
    const base = {
      kind: 'question',
      requestId: 'r1',
      protocolRequestId: 'p1',
      sessionId: 's1',
      toolName: 'AskUserQuestion',
      createdAt: '2026-01-01T00:00:00.000Z',
      input: { questions: [choice()] },
    };
    expect(InteractionRequestSchema.safeParse(base).success).toBe(false);
    expect(InteractionRequestSchema.safeParse({ ...base, inputRules: 'askaway' }).success).toBe(false);
    expect(InteractionRequestSchema.safeParse({ ...base, inputRules: 'claude-code' }).success).toBe(true);
  });
});

describe("Claude Code's multi-select join", () => {
  it('[R2.9][R11.5] joins with ", " and JSON-quotes a label holding ", " or a double quote', () => {
    expect(joinClaudeCodeLabels(['Postgres', 'Redis'])).toBe('Postgres, Redis');
    expect(joinClaudeCodeLabels(['Tokyo, Japan', 'Paris'])).toBe('"Tokyo, Japan", Paris');
    expect(joinClaudeCodeLabels(['The "new" one'])).toBe('"The \\"new\\" one"');
    expect(joinClaudeCodeLabels(['Both, "quoted"', 'a,b'])).toBe('"Both, \\"quoted\\"", a,b');
  });
});

describe('number answers', () => {
  it('[R11.5] are plain decimals within min..max, as Claude Code reads them', () => {
    expect(normalizeNumberAnswer(' 12 ')).toBe('12');
    expect(normalizeNumberAnswer('+3')).toBe('3');
    expect(normalizeNumberAnswer('.5')).toBe('0.5');
    expect(normalizeNumberAnswer('2.')).toBe('2');
    expect(normalizeNumberAnswer('-0.25')).toBe('-0.25');
    for (const bad of ['', 'abc', '1e3', '1,5', '--1', 'Infinity']) expect(normalizeNumberAnswer(bad)).toBeNull();
    expect(numberAnswerProblem('3', { min: 1, max: 5 })).toBeNull();
    expect(numberAnswerProblem('9', { min: 1, max: 5 })).toBe('The answer must lie between 1 and 5');
    expect(numberAnswerProblem('1e3', { min: 1, max: 5 })).toBe(
      'The answer to a number question must be a number such as 12 or -3.5',
    );
  });
});
