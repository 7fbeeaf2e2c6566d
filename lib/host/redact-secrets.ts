import { type HostEvent, type InteractionResolution, type InteractionView, type TerminalAnswer } from '../contracts';
import { maskSecretAnswers, secretQuestionsOf as secretQuestions } from '../state/secret-answers';

function redactResolution(resolution: InteractionResolution, secrets: Set<string>): InteractionResolution {
  return secrets.size === 0 ? resolution : { ...resolution, response: maskSecretAnswers(resolution.response, secrets) };
}

function redactTerminalAnswer(answer: TerminalAnswer, secrets: Set<string>): TerminalAnswer {
  return answer.response === undefined || secrets.size === 0
    ? answer
    : { ...answer, response: maskSecretAnswers(answer.response, secrets) };
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
  return maskSecretAnswers(resolution.response, secretQuestions(view)) !== resolution.response;
}
