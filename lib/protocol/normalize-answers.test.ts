import { describe, expect, it } from 'vitest';
import { AskUserQuestionAnsweredInputSchema, type AskUserQuestionInput } from '../contracts';
import { normalizeAskUserQuestionAnswers, normalizeAskUserQuestionResponseContent } from './normalize-answers';

const input = (count: number): AskUserQuestionInput => ({
  questions: Array.from({ length: count }, (_, i) => ({
    question: `Q${i + 1}?`,
    header: `H${i + 1}`,
    options: [
      { label: 'A', description: 'a' },
      { label: 'B', description: 'b' },
    ],
    multiSelect: false,
  })),
});

describe('normalizeAskUserQuestionResponseContent', () => {
  it('[R5.1] keeps only answers and annotations, folding legacy fields in', () => {
    const result = normalizeAskUserQuestionResponseContent(input(2), {
      answers: { 'Q1?': 'A' },
      answer_1: 'B',
      answer: 'ignored',
      extra: true,
      annotations: { 'Q1?': { notes: 'n', extra: 1 } },
    });
    expect(result).toEqual({ answers: { 'Q1?': 'A', 'Q2?': 'B' }, annotations: { 'Q1?': { notes: 'n' } } });
    expect(AskUserQuestionAnsweredInputSchema.safeParse({ ...input(2), ...result }).success).toBe(true);
  });

  it('[R5.2] keys answers by question text and maps answer_<i> by position', () => {
    expect(normalizeAskUserQuestionResponseContent(input(3), { answer_0: 'A', answer_2: 'B', answer_7: 'x' })).toEqual({
      answers: { 'Q1?': 'A', 'Q3?': 'B' },
    });
  });

  it('[R5.2] maps answer_index + answer by position with several questions', () => {
    expect(normalizeAskUserQuestionResponseContent(input(3), { answer_index: 1, answer: 'B' })).toEqual({
      answers: { 'Q2?': 'B' },
    });
    expect(normalizeAskUserQuestionResponseContent(input(3), { answer_index: 9, answer: 'B' })).toEqual({
      answers: {},
    });
    expect(normalizeAskUserQuestionResponseContent(input(3), { answer_index: '1', answer: 'B' })).toEqual({
      answers: {},
    });
  });

  it('[R5.2] maps a bare answer only when there is one question', () => {
    expect(normalizeAskUserQuestionResponseContent(input(1), { answer: 'B' })).toEqual({ answers: { 'Q1?': 'B' } });
    expect(normalizeAskUserQuestionResponseContent(input(2), { answer: 'B' })).toEqual({ answers: {} });
  });

  it('[R5.2] prefers answers keyed by text over legacy positions', () => {
    expect(normalizeAskUserQuestionResponseContent(input(2), { answers: { 'Q1?': 'A' }, answer_0: 'B' })).toEqual({
      answers: { 'Q1?': 'A' },
    });
  });

  it('[R5.3] keeps answers: {} as explicit success', () => {
    expect(normalizeAskUserQuestionResponseContent(input(2), { answers: {} })).toEqual({ answers: {} });
  });

  it('[R5.3] injects no answers when content is missing or not an object', () => {
    for (const content of [undefined, null, 'yes', 1, [], [{ answers: {} }]]) {
      expect(normalizeAskUserQuestionResponseContent(input(2), content)).toEqual({});
    }
    expect(normalizeAskUserQuestionResponseContent(input(2), {})).toEqual({});
  });

  it('[R5.4] drops unknown question keys, non-string and blank answers', () => {
    const content = { answers: { 'Q1?': ' \n', 'Q2?': 3, 'Q9?': 'A', 'q1?': 'A', constructor: 'x' } };
    expect(normalizeAskUserQuestionResponseContent(input(2), content)).toEqual({ answers: {} });
    expect(normalizeAskUserQuestionAnswers(input(2), { 'Q2?': ['A', 'B'], 'Q1?': 'A, B' })).toEqual({ 'Q1?': 'A, B' });
    for (const answers of ['A', ['A'], null]) expect(normalizeAskUserQuestionAnswers(input(2), answers)).toEqual({});
  });

  it('[R5.4] keeps annotations only for known questions and only string preview/notes', () => {
    const content = {
      answers: {},
      annotations: { 'Q1?': { preview: 7, notes: ' ' }, 'Q2?': { preview: 'p' }, 'Q9?': { notes: 'n' }, 'Q3?': 'x' },
    };
    expect(normalizeAskUserQuestionResponseContent(input(2), content)).toEqual({
      answers: {},
      annotations: { 'Q2?': { preview: 'p' } },
    });
  });

  it('[R5.4] treats question texts such as __proto__ as ordinary keys', () => {
    const tricky: AskUserQuestionInput = {
      questions: [{ ...input(1).questions[0], question: '__proto__' } as AskUserQuestionInput['questions'][0]],
    };
    const content = JSON.parse('{"answers":{"__proto__":"A"}}') as unknown;
    const result = normalizeAskUserQuestionResponseContent(tricky, content);
    expect(Object.keys(result.answers ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(result.answers)).toBe(Object.prototype);
  });
});

// Deterministic PRNG (mulberry32) so a failure reproduces from its seed.
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generator(seed: number) {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const keys = [
    'Q1?',
    'Q2?',
    'Q3?',
    'Q4?',
    'q1?',
    'answers',
    'answer',
    'answer_0',
    'answer_1',
    'answer_3',
    'answer_index',
    'annotations',
    '__proto__',
    'constructor',
    '',
    ' ',
  ];
  const value = (depth: number): unknown => {
    const kind = pick(['string', 'blank', 'number', 'bool', 'null', 'undefined', 'array', 'object', 'object'] as const);
    switch (kind) {
      case 'string':
        return pick(['A', 'B', 'A, B', 'typed text', 'x'.repeat(3000)]);
      case 'blank':
        return pick(['', ' ', '\n\t']);
      case 'number':
        return pick([0, 1, 2, 3, -1, 1.5, Number.NaN]);
      case 'bool':
        return next() < 0.5;
      case 'null':
        return null;
      case 'undefined':
        return undefined;
      case 'array':
        return depth > 2 ? [] : [value(depth + 1), value(depth + 1)];
      case 'object': {
        if (depth > 2) return {};
        const record: Record<string, unknown> = {};
        const size = Math.floor(next() * 5);
        for (let i = 0; i < size; i += 1) record[pick(keys)] = value(depth + 1);
        return record;
      }
    }
  };
  const record = (keyPool: readonly string[], make: () => unknown) => {
    const result: Record<string, unknown> = {};
    const size = Math.floor(next() * 5);
    for (let i = 0; i < size; i += 1) result[pick(keyPool)] = make();
    return result;
  };
  // Mostly response-shaped content (answers, legacy keys, annotations), sometimes anything at all.
  const content = (): unknown => {
    if (next() < 0.15) return value(0);
    const answer = () => (next() < 0.6 ? pick(['A', 'B', 'A, B', ' ', 'typed text']) : value(2));
    const result: Record<string, unknown> = record(keys, answer);
    if (next() < 0.7) result.answers = next() < 0.8 ? record(keys, answer) : value(1);
    if (next() < 0.4)
      result.annotations = record(keys, () => (next() < 0.7 ? { preview: value(3), notes: value(3), x: 1 } : value(2)));
    return result;
  };
  return { value, content, pick, next };
}

describe('normalization properties (seeded, generated)', () => {
  const cases = 400;
  it(`[R5.1][R5.4] random content never yields foreign keys, blank answers or legacy fields (${cases} cases)`, () => {
    let nonEmptyAnswers = 0;
    for (let seed = 1; seed <= cases; seed += 1) {
      const gen = generator(seed);
      const shape = input(1 + Math.floor(gen.next() * 4));
      const texts = new Set(shape.questions.map((q) => q.question));
      const content = gen.content();
      const result = normalizeAskUserQuestionResponseContent(shape, content);
      const context = `seed ${seed}: ${JSON.stringify(content)?.slice(0, 300)}`;

      expect(
        Object.keys(result).every((key) => key === 'answers' || key === 'annotations'),
        context,
      ).toBe(true);
      for (const [key, answer] of Object.entries(result.answers ?? {})) {
        expect(texts.has(key), context).toBe(true);
        expect(typeof answer === 'string' && answer.trim() !== '', context).toBe(true);
      }
      for (const key of Object.keys(result.annotations ?? {})) expect(texts.has(key), context).toBe(true);
      if (typeof content !== 'object' || content === null || Array.isArray(content))
        expect(result, context).toEqual({});
      // Whatever normalization keeps must pass the handler's schema.
      if (Object.keys(result.answers ?? {}).length > 0) nonEmptyAnswers += 1;
      if (result.answers !== undefined) {
        expect(AskUserQuestionAnsweredInputSchema.safeParse({ ...shape, ...result }).success, context).toBe(true);
      }
    }
    // The generator must reach the interesting cases, not only the empty ones.
    expect(nonEmptyAnswers).toBeGreaterThan(cases / 20);
  });
});
