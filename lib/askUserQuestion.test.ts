import { describe, expect, it } from 'vitest';
import { isCustomInputLabel, toAskUserQuestionDisplayModel } from './askUserQuestion';
import { expectItem } from './core/test-support/expect-item';

const modern = {
  questions: [
    {
      question: 'Which layout?',
      header: 'Layout',
      multiSelect: false,
      options: [
        { label: 'Cards (Recommended)', description: 'Grid of cards', preview: '<div class="grid">…</div>' },
        { label: 'List', description: 'Dense list', preview: '- a\n- b' },
      ],
    },
    {
      question: 'Which extras?',
      header: 'Extras',
      multiSelect: true,
      options: [
        { label: 'Search', description: 's' },
        { label: 'Tags', description: 't' },
      ],
    },
  ],
  answers: { 'Which layout?': 'List' },
  annotations: { 'Which layout?': { notes: 'keep it light' } },
};

describe('toAskUserQuestionDisplayModel', () => {
  it('[R9.5] builds the display model of the multi-question array', () => {
    const model = toAskUserQuestionDisplayModel(modern);
    expect(model.error).toBeUndefined();
    expect(model.questions).toHaveLength(2);
    const [layout, extras] = model.questions;
    expect(layout).toMatchObject({
      question: 'Which layout?',
      header: 'Layout',
      multiSelect: false,
      hasPreview: true,
      customInput: { enabled: true },
    });
    expect(layout?.options[0]).toEqual({
      label: 'Cards (Recommended)',
      displayLabel: 'Cards',
      description: 'Grid of cards',
      preview: '<div class="grid">…</div>',
      previewKind: 'html',
      recommended: true,
    });
    expect(layout?.options[1]).toMatchObject({ recommended: false, previewKind: 'text' });
    expect(extras).toMatchObject({ multiSelect: true, hasPreview: false });
    expect(model.answers).toEqual({ 'Which layout?': 'List' });
    expect(model.annotations).toEqual({ 'Which layout?': { notes: 'keep it light' } });
  });

  it('[R9.5] accepts the legacy single-question shape with string options', () => {
    const model = toAskUserQuestionDisplayModel({
      question: 'Deploy now?',
      options: ['Yes', 'Later', { label: 'Never', description: 'n' }],
    });
    expect(model.questions).toHaveLength(1);
    expect(model.questions[0]).toMatchObject({ question: 'Deploy now?', header: '', multiSelect: false });
    expect(expectItem(model.questions, 0).options.map((o) => [o.label, o.description])).toEqual([
      ['Yes', ''],
      ['Later', ''],
      ['Never', 'n'],
    ]);
  });

  it.each([
    '其他',
    '其它（请说明）',
    '自定义',
    '请填写',
    'Other',
    'other (please specify)',
    'Custom',
    'Free text',
    'free-text answer',
    'Please specify',
  ])('[R9.5] turns a last option %j into the custom-input box', (label) => {
    const question = expectItem(
      toAskUserQuestionDisplayModel({ question: 'Q?', options: ['A', 'B', label] }).questions,
      0,
    );
    expect(question.options.map((o) => o.label)).toEqual(['A', 'B']);
    expect(question.customInput).toEqual({ enabled: true, label });
  });

  it('[R9.5] only strips the last option and leaves look-alike words alone', () => {
    expect(
      expectItem(toAskUserQuestionDisplayModel({ question: 'Q?', options: ['Other', 'B'] }).questions, 0).options,
    ).toHaveLength(2);
    for (const label of ['Another database', 'Customize later', 'Mother'])
      expect(isCustomInputLabel(label)).toBe(false);
    const question = expectItem(
      toAskUserQuestionDisplayModel({ question: 'Q?', options: ['A', 'Another database'] }).questions,
      0,
    );
    expect(question.options).toHaveLength(2);
    expect(question.customInput).toEqual({ enabled: true });
  });

  it('[R9.5] accepts a JSON string and drops broken or duplicate parts', () => {
    const model = toAskUserQuestionDisplayModel(
      JSON.stringify({
        questions: [
          { question: 'A?', options: [null, 7, { label: '' }, 'x', 'x'] },
          { question: 'A?' },
          null,
          { header: 'no text' },
        ],
      }),
    );
    expect(model.questions).toHaveLength(1);
    expect(expectItem(model.questions, 0).options.map((o) => o.label)).toEqual(['x']);
    expect(model.error).toBe('Some questions could not be shown');
  });

  it('[R9.5] never throws for malformed input', () => {
    const hostile = Object.defineProperty({}, 'questions', {
      get() {
        throw new Error('getter exploded');
      },
      enumerable: true,
    });
    for (const raw of [
      undefined,
      null,
      0,
      'not json',
      '[]',
      [],
      {},
      { questions: 'x' },
      { questions: [[]] },
      hostile,
    ]) {
      const model = toAskUserQuestionDisplayModel(raw);
      expect(model.questions).toEqual([]);
      expect(typeof model.error).toBe('string');
    }
  });
});
