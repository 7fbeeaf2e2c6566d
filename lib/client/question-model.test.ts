import { describe, expect, it } from 'vitest';
import { expectItem } from '../core/test-support/expect-item';
import {
  buildAnswers,
  chooseOption,
  chooseOther,
  EMPTY_DRAFT,
  numberValueProblem,
  toDisplayModel,
  toDisplayQuestions,
  type QuestionDraft,
} from './question-model';

const questions = toDisplayQuestions({
  questions: [
    {
      question: 'Which DB?',
      header: 'DB',
      multiSelect: false,
      options: [
        { label: 'Postgres (Recommended)', description: 'p', preview: 'CREATE TABLE t ();' },
        { label: 'MySQL', description: 'm' },
      ],
    },
    {
      question: 'Which features?',
      header: 'Features',
      multiSelect: true,
      options: [
        { label: 'Search', description: 's' },
        { label: 'Export', description: 'e' },
        { label: 'Sharing', description: 'sh' },
      ],
    },
  ],
});
const [single, multi] = questions;
if (!single || !multi) throw new Error('fixture');

describe('question model', () => {
  it('[R9.3] strips "(Recommended)" for display but keeps the exact label', () => {
    expect(single.options[0]).toMatchObject({ label: 'Postgres (Recommended)', text: 'Postgres', recommended: true });
    expect(single.hasPreview).toBe(true);
    expect(multi.hasPreview).toBe(false);
  });

  it('[R2.9] joins multi-select labels in option order with ", " and appends Other text', () => {
    let draft: QuestionDraft = EMPTY_DRAFT;
    draft = chooseOption(multi, draft, 'Sharing');
    draft = chooseOption(multi, draft, 'Search');
    draft = chooseOther(multi, draft);
    draft = { ...draft, otherText: '  Offline  ' };
    const built = buildAnswers([multi], [draft]);
    expect(built.answers).toEqual({ 'Which features?': 'Search, Sharing, Offline' });
  });

  it('[R9.11] an empty Other is no answer, never a cancel', () => {
    const draft = { ...chooseOther(single, chooseOption(single, EMPTY_DRAFT, 'MySQL')), otherText: '   ' };
    expect(buildAnswers([single], [draft]).answers).toEqual({});
  });

  it('[R4.5] sends the chosen option preview and notes as annotations', () => {
    const draft = { ...chooseOption(single, EMPTY_DRAFT, 'Postgres (Recommended)'), note: ' prod uses it ' };
    expect(buildAnswers([single], [draft])).toEqual({
      answers: { 'Which DB?': 'Postgres (Recommended)' },
      annotations: { 'Which DB?': { preview: 'CREATE TABLE t ();', notes: 'prod uses it' } },
      answeredCount: 1,
      invalid: [],
    });
  });

  it('[R5.3] skipped questions are absent; skipping everything gives answers: {}', () => {
    const skipped = { ...chooseOption(single, EMPTY_DRAFT, 'MySQL'), skipped: true };
    expect(buildAnswers(questions, [skipped, { ...EMPTY_DRAFT, skipped: true }]).answers).toEqual({});
  });

  it('[R9.5] accepts the legacy single-question shape and turns a trailing "Other" into the custom box', () => {
    const legacy = toDisplayQuestions({ question: 'Pick', header: 'P', options: ['A', 'B', 'Other'] });
    expect(legacy).toHaveLength(1);
    expect(expectItem(legacy, 0).options.map((option) => option.label)).toEqual(['A', 'B']);
    expect(expectItem(legacy, 0).customLabel).toBe('Other');
  });

  it('[R9.5][R11.5] on Claude Code questions an option labelled "Other" stays an option, and its label is the answer', () => {
    const input = {
      questions: [
        {
          question: 'Where?',
          header: 'A long header for a chip',
          options: [
            { label: 'Here', description: '' },
            { label: 'Other', description: 'Somewhere else' },
          ],
          multiSelect: false,
        },
      ],
    };
    const [strict] = toDisplayQuestions(input);
    expect(strict?.options.map((option) => option.label)).toEqual(['Here']);
    const [claude] = toDisplayQuestions(input, 'claude-code');
    if (!claude) throw new Error('fixture');
    expect(claude).toMatchObject({ header: 'A long header for a chip', hasOtherLikeOption: true, claudeCode: true });
    expect(claude.options.map((option) => [option.label, option.description])).toEqual([
      ['Here', ''],
      ['Other', 'Somewhere else'],
    ]);
    expect(buildAnswers([claude], [chooseOption(claude, EMPTY_DRAFT, 'Other')]).answers).toEqual({ 'Where?': 'Other' });
  });

  it('[R2.9][R11.5] Claude Code multi-select answers JSON-quote a label holding ", " or a quote', () => {
    const [question] = toDisplayQuestions(
      {
        questions: [
          {
            question: 'Which regions?',
            header: 'Regions',
            options: ['Tokyo, Japan', 'The "new" one', 'Plain'].map((label) => ({ label, description: '' })),
            multiSelect: true,
          },
        ],
      },
      'claude-code',
    );
    if (!question) throw new Error('fixture');
    let draft = EMPTY_DRAFT;
    for (const label of ['Plain', 'Tokyo, Japan', 'The "new" one']) draft = chooseOption(question, draft, label);
    draft = { ...chooseOther(question, draft), otherText: 'Lisbon, Portugal' };
    expect(buildAnswers([question], [draft]).answers).toEqual({
      'Which regions?': '"Tokyo, Japan", "The \\"new\\" one", Plain, "Lisbon, Portugal"',
    });
  });

  it('[R11.5] text and number questions: typed answers, a title, a number in Claude Code form and in range', () => {
    const model = toDisplayModel(
      {
        title: 'Before I build your deck',
        questions: [
          { question: 'Topic?', header: 'Topic', kind: 'text', placeholder: 'One line', description: 'Short' },
          { question: 'Slides?', header: 'Length', kind: 'number', min: 5, max: 30, defaultValue: 12, unit: 'slides' },
          { question: 'Broken?', header: 'B', kind: 'number', min: 3, max: 1 },
        ],
      },
      'claude-code',
    );
    expect(model.title).toBe('Before I build your deck');
    const [text, number, broken] = model.questions;
    if (!text || !number || !broken) throw new Error('fixture');
    expect(text).toMatchObject({ kind: 'text', placeholder: 'One line', description: 'Short', options: [] });
    expect(number).toMatchObject({ kind: 'number', min: 5, max: 30, defaultValue: 12, unit: 'slides' });
    // A number question without a usable range is still answerable, as text.
    expect(broken.kind).toBe('text');
    const drafts = [{ ...EMPTY_DRAFT, value: '  A talk  ' }, { ...EMPTY_DRAFT, value: '+12' }, EMPTY_DRAFT];
    expect(buildAnswers(model.questions, drafts)).toMatchObject({
      answers: { 'Topic?': 'A talk', 'Slides?': '12' },
      invalid: [],
    });
    expect(numberValueProblem(number, { ...EMPTY_DRAFT, value: '31' })).toBe('number_range');
    expect(numberValueProblem(number, { ...EMPTY_DRAFT, value: 'twelve' })).toBe('number_invalid');
    expect(numberValueProblem(number, { ...EMPTY_DRAFT, value: '' })).toBeNull();
    expect(buildAnswers(model.questions, [EMPTY_DRAFT, { ...EMPTY_DRAFT, value: '31' }, EMPTY_DRAFT])).toMatchObject({
      answers: {},
      invalid: [1],
    });
  });
});
