import { type AskUserQuestionInput } from '../contracts';

/** A valid model call with `count` questions ("Q1?" …). */
export function questionsInput(count = 2): AskUserQuestionInput {
  return {
    questions: Array.from({ length: count }, (_, index) => ({
      question: `Q${index + 1}?`,
      header: `Topic ${index + 1}`,
      options: [
        { label: 'Alpha (Recommended)', description: 'The usual choice' },
        { label: 'Beta', description: 'The other choice', preview: '```ts\nconst beta = 1;\n```' },
      ],
      multiSelect: false,
    })),
  };
}
