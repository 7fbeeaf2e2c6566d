import { describe, expect, it } from 'vitest';
import { ASK_USER_QUESTION_TOOL_CHIP_WIDTH } from './limits';
import {
  ANSWERS_NOT_COLLECTED_MESSAGE,
  AskUserQuestionAnsweredInputSchema,
  AskUserQuestionInputSchema,
  BLANK_ANSWER_MESSAGE,
  OTHER_OPTION_MESSAGE,
  UNKNOWN_QUESTION_MESSAGE,
  askUserQuestionProviderJsonSchema,
  withRequiredDefaultedMultiSelect,
} from './ask-user-question';
import { isHtmlPreview, validateAskUserQuestionPreview } from './preview';

const option = (label: string, extra: Record<string, unknown> = {}) => ({
  label,
  description: `Means ${label}`,
  ...extra,
});
const question = (text: string, extra: Record<string, unknown> = {}) => ({
  question: text,
  header: 'Topic',
  options: [option('A'), option('B')],
  ...extra,
});

function issuesOf(
  schema: { safeParse(value: unknown): { success: boolean; error?: { issues: unknown[] } } },
  value: unknown,
) {
  const result = schema.safeParse(value);
  return (result.error?.issues ?? []) as { message: string; path: PropertyKey[]; code: string }[];
}

describe('AskUserQuestionInputSchema', () => {
  it('[R2.1] accepts 1–4 questions and rejects 0 or 5', () => {
    expect(AskUserQuestionInputSchema.safeParse({ questions: [question('Q1?')] }).success).toBe(true);
    const four = ['1', '2', '3', '4'].map((n) => question(`Q${n}?`));
    expect(AskUserQuestionInputSchema.safeParse({ questions: four }).success).toBe(true);
    expect(AskUserQuestionInputSchema.safeParse({ questions: [] }).success).toBe(false);
    expect(AskUserQuestionInputSchema.safeParse({ questions: [...four, question('Q5?')] }).success).toBe(false);
  });

  it('[R2.1] rejects duplicate question texts with a refinement error', () => {
    const issues = issuesOf(AskUserQuestionInputSchema, { questions: [question('Same?'), question('Same?')] });
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'custom',
        path: ['questions', 1, 'question'],
        message: expect.stringContaining('unique'),
      }),
    ]);
  });

  it('[R2.2] limits the header to the chip width', () => {
    const ok = 'x'.repeat(ASK_USER_QUESTION_TOOL_CHIP_WIDTH);
    expect(ASK_USER_QUESTION_TOOL_CHIP_WIDTH).toBe(12);
    expect(AskUserQuestionInputSchema.safeParse({ questions: [question('Q?', { header: ok })] }).success).toBe(true);
    const issues = issuesOf(AskUserQuestionInputSchema, { questions: [question('Q?', { header: `${ok}y` })] });
    expect(issues[0]).toHaveProperty('path', ['questions', 0, 'header']);
    expect(AskUserQuestionInputSchema.safeParse({ questions: [question('Q?', { header: '  ' })] }).success).toBe(false);
  });

  it('[R2.3] requires 2–4 options with unique labels and non-empty descriptions', () => {
    const withOptions = (options: unknown[]) => ({ questions: [question('Q?', { options })] });
    expect(AskUserQuestionInputSchema.safeParse(withOptions([option('A')])).success).toBe(false);
    expect(
      AskUserQuestionInputSchema.safeParse(withOptions(['A', 'B', 'C', 'D', 'E'].map((l) => option(l)))).success,
    ).toBe(false);
    const dup = issuesOf(AskUserQuestionInputSchema, withOptions([option('A'), option('A')]));
    expect(dup[0]).toHaveProperty('message', expect.stringContaining('unique within a question'));
    expect(
      AskUserQuestionInputSchema.safeParse(withOptions([option('A'), { label: 'B', description: ' ' }])).success,
    ).toBe(false);
    expect(AskUserQuestionInputSchema.safeParse(withOptions([option('A'), { label: 'B' }])).success).toBe(false);
  });

  it.each(['Other', 'other', '  OTHER  '])('[R2.4] rejects an Other option (%j)', (label) => {
    const issues = issuesOf(AskUserQuestionInputSchema, {
      questions: [question('Q?', { options: [option('A'), option(label)] })],
    });
    expect(issues).toEqual([
      expect.objectContaining({ message: OTHER_OPTION_MESSAGE, path: ['questions', 0, 'options', 1, 'label'] }),
    ]);
  });

  it('[R2.4] allows labels that merely contain the word other', () => {
    const options = [option('Another database'), option('Other approaches first')];
    expect(AskUserQuestionInputSchema.safeParse({ questions: [question('Q?', { options })] }).success).toBe(true);
  });

  it('[R2.5] defaults multiSelect to false at runtime but requires it in the provider schema', () => {
    const parsed = AskUserQuestionInputSchema.parse({ questions: [question('Q?')] });
    expect(parsed.questions[0]).toHaveProperty('multiSelect', false);
    const schema = askUserQuestionProviderJsonSchema() as {
      properties: {
        questions: { items: { required: string[]; properties: Record<string, { description?: string }> } };
      };
    };
    expect(schema.properties.questions.items.required).toEqual(
      expect.arrayContaining(['question', 'header', 'options', 'multiSelect']),
    );
    expect(schema.properties.questions.items.properties.multiSelect?.description).toBeTruthy();
    expect(JSON.stringify(schema)).not.toContain('$schema');
  });

  it('[R2.5] withRequiredDefaultedMultiSelect adds multiSelect once and leaves other nodes alone', () => {
    const node = { type: 'object', properties: { multiSelect: {}, options: {} }, required: ['options', 'multiSelect'] };
    expect(withRequiredDefaultedMultiSelect(node).required).toEqual(['options', 'multiSelect']);
    expect(withRequiredDefaultedMultiSelect({ properties: { multiSelect: {} } })).toEqual({
      properties: { multiSelect: {} },
    });
    expect(withRequiredDefaultedMultiSelect('text')).toBe('text');
    expect(withRequiredDefaultedMultiSelect([{ properties: { multiSelect: {}, options: {} } }])).toEqual([
      { properties: { multiSelect: {}, options: {} }, required: ['multiSelect'] },
    ]);
  });

  it.each([
    ['plain text', 'Use a queue', null],
    ['multi-line markdown', '# Title\n- a\n- b', null],
    ['a < b is text', 'a < b', null],
    ['text starting with <', '< 5 ms latency', null],
    ['text starting with <=', '<= 10 items', null],
    ['an HTML fragment', '<div style="color:red">x</div>', null],
    ['self-closing tag', '<br/>', null],
    ['doctype', '<!doctype html><p>x</p>', 'fragments'],
    ['html element', '<html><p>x</p></html>', 'fragments'],
    ['body element', '<div><BODY>x</BODY></div>', 'fragments'],
    ['script', '<div><script>alert(1)</script></div>', '<script>'],
    ['script inside text', 'see <script>x</script>', '<script>'],
    ['style', '<style>p{}</style><p>x</p>', '<script>'],
    ['comment only', '<!-- nothing -->', 'must contain an HTML tag'],
    ['unterminated tag', '<div class="x"', 'must contain an HTML tag'],
  ])('[R2.6] preview %s', (_name, preview, expected) => {
    const reason = validateAskUserQuestionPreview(preview);
    if (expected === null) expect(reason).toBeNull();
    else expect(reason).toContain(expected);
  });

  it('[R2.6] tells HTML previews from text previews', () => {
    expect(isHtmlPreview('<div>x</div>')).toBe(true);
    expect(isHtmlPreview('a < b')).toBe(false);
    expect(isHtmlPreview('< 5 ms <b>x</b>')).toBe(false);
    expect(isHtmlPreview('**bold** <b>x</b>')).toBe(false);
  });

  it('[R2.6] rejects an invalid preview through the schema at its path', () => {
    const options = [option('A', { preview: '<script>x</script>' }), option('B')];
    const issues = issuesOf(AskUserQuestionInputSchema, { questions: [question('Q?', { options })] });
    expect(issues[0]).toHaveProperty('path', ['questions', 0, 'options', 0, 'preview']);
  });

  it('[R2.7] accepts metadata.source and nothing else in metadata', () => {
    expect(
      AskUserQuestionInputSchema.safeParse({ questions: [question('Q?')], metadata: { source: '/remember' } }).success,
    ).toBe(true);
    expect(AskUserQuestionInputSchema.safeParse({ questions: [question('Q?')], metadata: { user: 'x' } }).success).toBe(
      false,
    );
  });

  it('[R2.8] rejects unknown keys at every level, including answers on the model input', () => {
    expect(AskUserQuestionInputSchema.safeParse({ questions: [question('Q?')], extra: 1 }).success).toBe(false);
    expect(AskUserQuestionInputSchema.safeParse({ questions: [question('Q?', { extra: 1 })] }).success).toBe(false);
    const options = [option('A', { extra: 1 }), option('B')];
    expect(AskUserQuestionInputSchema.safeParse({ questions: [question('Q?', { options })] }).success).toBe(false);
    expect(AskUserQuestionInputSchema.safeParse({ questions: [question('Q?')], answers: {} }).success).toBe(false);
  });

  it('[R2.8] rejects malformed values without throwing', () => {
    for (const value of [null, undefined, 42, 'x', [], { questions: 'x' }, { questions: [null] }]) {
      expect(AskUserQuestionInputSchema.safeParse(value).success).toBe(false);
    }
  });
});

describe('AskUserQuestionAnsweredInputSchema', () => {
  const base = { questions: [question('Which DB?'), question('Which cache?')] };

  it('[R2.9] accepts answers covering all, some or none of the questions', () => {
    for (const answers of [{ 'Which DB?': 'A', 'Which cache?': 'B' }, { 'Which DB?': 'A, B' }, {}]) {
      expect(AskUserQuestionAnsweredInputSchema.safeParse({ ...base, answers }).success).toBe(true);
    }
  });

  it('[R2.9] accepts annotations with preview and notes for known questions', () => {
    const annotations = { 'Which DB?': { preview: 'x', notes: 'y' } };
    expect(AskUserQuestionAnsweredInputSchema.safeParse({ ...base, answers: {}, annotations }).success).toBe(true);
    const unknown = issuesOf(AskUserQuestionAnsweredInputSchema, { ...base, answers: {}, annotations: { Nope: {} } });
    expect(unknown).toEqual([
      expect.objectContaining({ message: UNKNOWN_QUESTION_MESSAGE, path: ['annotations', 'Nope'] }),
    ]);
  });

  it('[R2.9] rejects blank answers and keys that are not question texts', () => {
    const blank = issuesOf(AskUserQuestionAnsweredInputSchema, { ...base, answers: { 'Which DB?': '  ' } });
    expect(blank).toEqual([expect.objectContaining({ message: BLANK_ANSWER_MESSAGE, path: ['answers', 'Which DB?'] })]);
    const unknown = issuesOf(AskUserQuestionAnsweredInputSchema, { ...base, answers: { 'Which OS?': 'Linux' } });
    expect(unknown).toEqual([
      expect.objectContaining({ message: UNKNOWN_QUESTION_MESSAGE, path: ['answers', 'Which OS?'] }),
    ]);
  });

  it('[R3.5] reports missing answers at path answers', () => {
    const issues = issuesOf(AskUserQuestionAnsweredInputSchema, base);
    expect(issues).toEqual([expect.objectContaining({ message: ANSWERS_NOT_COLLECTED_MESSAGE, path: ['answers'] })]);
  });
});
