import {
  SECRET_ANSWER_MASK,
  type HostEvent,
  type InteractionResolution,
  type InteractionResponse,
  type InteractionView,
  type TerminalAnswer,
} from '../contracts';

/** The texts of a question interaction's secret questions (R18.5); empty for anything else. */
function secretQuestions(view: InteractionView | undefined): Set<string> {
  if (view?.kind !== 'question') return new Set();
  return new Set(
    view.input.questions.filter((question) => 'secret' in question && question.secret).map((q) => q.question),
  );
}

/** A response with every secret answer (and its notes) replaced by the mask. */
function redactResponse(response: InteractionResponse, secrets: Set<string>): InteractionResponse {
  if (secrets.size === 0 || response.action !== 'accept' || !response.content) return response;
  const answers = response.content.answers && { ...response.content.answers };
  const annotations = response.content.annotations && { ...response.content.annotations };
  for (const question of secrets) {
    if (answers && Object.hasOwn(answers, question)) answers[question] = SECRET_ANSWER_MASK;
    if (annotations && Object.hasOwn(annotations, question)) delete annotations[question];
  }
  return {
    ...response,
    content: {
      ...response.content,
      ...(answers ? { answers } : {}),
      ...(annotations ? { annotations } : {}),
    },
  };
}

function redactResolution(resolution: InteractionResolution, secrets: Set<string>): InteractionResolution {
  return secrets.size === 0 ? resolution : { ...resolution, response: redactResponse(resolution.response, secrets) };
}

function redactTerminalAnswer(answer: TerminalAnswer, secrets: Set<string>): TerminalAnswer {
  return answer.response === undefined || secrets.size === 0
    ? answer
    : { ...answer, response: redactResponse(answer.response, secrets) };
}

/**
 * What remotes may see of a secret answer (R18.5): that there was one, never what it was. The agent that
 * asked gets it from the host's memory (the log holds the mask, R12.13); every phone, every history, receipt
 * and cached inbox gets the mask. `viewOf` looks up the interaction an event belongs to.
 */
export function redactEventForRemotes(
  event: HostEvent,
  viewOf: (requestId: string) => InteractionView | undefined,
): HostEvent {
  if (event.type === 'interaction.withdrawn' && event.terminalAnswer) {
    const secrets = secretQuestions(viewOf(event.requestId));
    return secrets.size === 0
      ? event
      : { ...event, terminalAnswer: redactTerminalAnswer(event.terminalAnswer, secrets) };
  }
  if (event.type !== 'interaction.resolved') return event;
  const secrets = secretQuestions(viewOf(event.resolution.requestId));
  return secrets.size === 0 ? event : { ...event, resolution: redactResolution(event.resolution, secrets) };
}

export function redactViewForRemotes(view: InteractionView): InteractionView {
  const secrets = secretQuestions(view);
  if (secrets.size === 0 || (!view.resolution && !view.terminalAnswer)) return view;
  return {
    ...view,
    ...(view.resolution ? { resolution: redactResolution(view.resolution, secrets) } : {}),
    ...(view.terminalAnswer ? { terminalAnswer: redactTerminalAnswer(view.terminalAnswer, secrets) } : {}),
  };
}

export function redactResolutionForRemotes(
  resolution: InteractionResolution,
  view: InteractionView | undefined,
): InteractionResolution {
  return redactResolution(resolution, secretQuestions(view));
}

/** What the terminal chose, with a secret answer masked: the log's copy of it (R12.13). */
export function redactTerminalAnswerFor(answer: TerminalAnswer, view: InteractionView): TerminalAnswer {
  return redactTerminalAnswer(answer, secretQuestions(view));
}

/** Whether the log's copy of this resolution lacks part of it: a secret answer or its note (R12.13). */
export function withholdsSecret(resolution: InteractionResolution, view: InteractionView): boolean {
  const content = resolution.response.action === 'accept' ? resolution.response.content : undefined;
  if (!content) return false;
  return [...secretQuestions(view)].some(
    (question) =>
      (content.answers !== undefined && Object.hasOwn(content.answers, question)) ||
      (content.annotations !== undefined && Object.hasOwn(content.annotations, question)),
  );
}
