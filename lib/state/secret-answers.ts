// lib/state: pure, shared by the host (what its log keeps) and the PWA (what its outbox keeps), R12.13, R12.14.
import { type InteractionResponse, type InteractionView } from '../contracts';
// Zod-free, so the service worker masks what it settles (R12.14) without bundling zod.
import { SECRET_ANSWER_MASK } from '../contracts/limits';

/** The texts of a question interaction's secret questions (R18.5); empty for anything else. */
export function secretQuestionsOf(view: InteractionView | undefined): Set<string> {
  if (view?.kind !== 'question') return new Set();
  return new Set(
    view.input.questions.filter((question) => 'secret' in question && question.secret).map((q) => q.question),
  );
}

/** A response with every secret answer replaced by the mask and its note dropped; the same object when none. */
export function maskSecretAnswers(response: InteractionResponse, secrets: ReadonlySet<string>): InteractionResponse {
  if (response.action !== 'accept' || !response.content) return response;
  const content = response.content;
  if (![...secrets].some((question) => holdsAnswerTo(response, question))) return response;
  const answers = content.answers && { ...content.answers };
  const annotations = content.annotations && { ...content.annotations };
  for (const question of secrets) {
    if (answers && Object.hasOwn(answers, question)) answers[question] = SECRET_ANSWER_MASK;
    if (annotations && Object.hasOwn(annotations, question)) delete annotations[question];
  }
  return {
    ...response,
    content: { ...content, ...(answers ? { answers } : {}), ...(annotations ? { annotations } : {}) },
  };
}

/** Whether the response carries an answer or a note to `question`. */
function holdsAnswerTo(response: InteractionResponse, question: string): boolean {
  const content = response.action === 'accept' ? response.content : undefined;
  return (
    (content?.answers !== undefined && Object.hasOwn(content.answers, question)) ||
    (content?.annotations !== undefined && Object.hasOwn(content.annotations, question))
  );
}
