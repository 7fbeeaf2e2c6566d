// How the phone's answer goes back to Codex in its own format (R18.2: to-answer; R18.3–R18.5, R18.11, R18.12).
import { type InteractionResponse } from '../../../contracts';
import { NONE_OF_THE_ABOVE, type CodexAnswerPlan, type PlannedQuestion } from './to-interaction';

/**
 * What the bridge does with a resolution: answer the server request, and for a decline with a reason
 * also tell the model why (Codex's decisions carry no message, so the reason joins the running turn as
 * the person's words); or interrupt the turn, as Esc does in the terminal.
 */
export type CodexReply = { result: unknown; steer?: string } | { interrupt: true };

/** The prefix of a decline reason the model reads as the person's message in the turn. */
export const DECLINE_STEER_PREFIX = 'I rejected that from my phone: ';

/** Codex's terminal sends a typed note as an extra answer after the chosen label. */
const note = (text: string) => `user_note: ${text}`;

/** One question's answers as Codex's terminal would send them, or undefined when it was skipped. */
export function questionAnswers(question: PlannedQuestion, answer: string | undefined, notes: string | undefined) {
  const typed = answer?.trim() ? answer : undefined;
  const extra = notes?.trim() ? notes : undefined;
  if (typed === undefined && extra === undefined) return undefined;
  if (question.freeform) return [note([typed, extra].filter(Boolean).join('\n'))];
  if (typed !== undefined && !question.labels.includes(typed) && typed !== NONE_OF_THE_ABOVE) {
    // Typed on the phone ("Other"): the terminal's "None of the above" with a note. A question that takes
    // only its options gets the text as it is (the host refuses one, so this is another phone's doing).
    if (!question.isOther) return [typed, ...(extra ? [note(extra)] : [])];
    return [NONE_OF_THE_ABOVE, note([typed, extra].filter(Boolean).join('\n'))];
  }
  return [...(typed !== undefined ? [typed] : []), ...(extra ? [note(extra)] : [])];
}

function questionReply(
  questions: readonly PlannedQuestion[],
  response: Extract<InteractionResponse, { action: 'accept' }>,
): CodexReply {
  const answers: Record<string, { answers: string[] }> = {};
  const given = response.content?.answers ?? {};
  const annotations = response.content?.annotations ?? {};
  for (const question of questions) {
    const answer = Object.hasOwn(given, question.key) ? given[question.key] : undefined;
    const notes = Object.hasOwn(annotations, question.key) ? annotations[question.key]?.notes : undefined;
    const list = questionAnswers(question, answer, notes);
    // Left out when skipped: Codex reads an absent id as unanswered ({answers: {}} answers none).
    if (list) answers[question.id] = { answers: list };
  }
  return { result: { answers } };
}

const steerFor = (response: InteractionResponse) =>
  response.action === 'decline' && response.message?.trim()
    ? { steer: `${DECLINE_STEER_PREFIX}${response.message}` }
    : {};

/** The reply to Codex for the winning response of a prompt planned by to-interaction. */
export function toCodexReply(plan: CodexAnswerPlan, response: InteractionResponse): CodexReply {
  const choice = response.action === 'accept' ? response.content?.choice : undefined;
  switch (plan.type) {
    case 'question':
      if (response.action === 'accept') return questionReply(plan.questions, response);
      if (response.action === 'cancel') return { interrupt: true };
      // A decline: no answers, and its reason as a note on every question, so the model reads why.
      return {
        result: {
          answers: response.message?.trim()
            ? Object.fromEntries(
                plan.questions.map((question) => [question.id, { answers: [note(response.message ?? '')] }]),
              )
            : {},
        },
      };
    case 'command':
      if (response.action === 'cancel') return { result: { decision: 'cancel' } };
      if (response.action === 'decline' || choice === undefined)
        return { result: { decision: 'decline' }, ...steerFor(response) };
      return { result: { decision: plan.decisions[choice] ?? 'accept' } };
    case 'file-change':
      if (response.action === 'cancel') return { result: { decision: 'cancel' } };
      if (response.action === 'decline') return { result: { decision: 'decline' }, ...steerFor(response) };
      return { result: { decision: choice === 'accept-session' ? 'acceptForSession' : 'accept' } };
    case 'permissions':
      // Granting nothing is Codex's deny.
      if (response.action !== 'accept') return { result: { permissions: {}, scope: 'turn' }, ...steerFor(response) };
      return { result: { permissions: plan.granted, scope: choice === 'session' ? 'session' : 'turn' } };
    case 'mcp-tool': {
      if (response.action !== 'accept') return { result: { action: response.action, content: null, _meta: null } };
      const persist = choice !== undefined ? (plan.persist[choice] ?? null) : null;
      return { result: { action: 'accept', content: {}, _meta: persist ? { persist } : null } };
    }
    case 'form':
    case 'url':
      if (response.action !== 'accept') return { result: { action: response.action, content: null, _meta: null } };
      return {
        result: {
          action: 'accept',
          content: plan.type === 'form' ? { ...(response.content?.values ?? {}) } : null,
          _meta: null,
        },
      };
  }
}
