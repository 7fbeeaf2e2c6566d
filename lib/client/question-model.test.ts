import { describe, expect, it } from 'vitest';
import {
  buildAnswers,
  chooseOption,
  chooseOther,
  EMPTY_DRAFT,
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
    });
  });

  it('[R5.3] skipped questions are absent; skipping everything gives answers: {}', () => {
    const skipped = { ...chooseOption(single, EMPTY_DRAFT, 'MySQL'), skipped: true };
    expect(buildAnswers(questions, [skipped, { ...EMPTY_DRAFT, skipped: true }]).answers).toEqual({});
  });

  it('[R9.5] accepts the legacy single-question shape and turns a trailing "Other" into the custom box', () => {
    const legacy = toDisplayQuestions({ question: 'Pick', header: 'P', options: ['A', 'B', 'Other'] });
    expect(legacy).toHaveLength(1);
    expect(legacy[0]?.options.map((option) => option.label)).toEqual(['A', 'B']);
    expect(legacy[0]?.customLabel).toBe('Other');
  });
});
