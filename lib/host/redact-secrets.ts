import { SECRET_ANSWER_MASK, type HostEvent, type InteractionResolution, type InteractionView } from '../contracts';

/** The texts of a question interaction's secret questions (R18.5); empty for anything else. */
function secretQuestions(view: InteractionView | undefined): Set<string> {
  if (view?.kind !== 'question') return new Set();
  return new Set(
    view.input.questions.filter((question) => 'secret' in question && question.secret).map((q) => q.question),
  );
}

/** A resolution with every secret answer (and its notes) replaced by the mask. */
function redactResolution(resolution: InteractionResolution, secrets: Set<string>): InteractionResolution {
  const { response } = resolution;
  if (secrets.size === 0 || response.action !== 'accept' || !response.content) return resolution;
  const answers = response.content.answers && { ...response.content.answers };
  const annotations = response.content.annotations && { ...response.content.annotations };
  for (const question of secrets) {
    if (answers && Object.hasOwn(answers, question)) answers[question] = SECRET_ANSWER_MASK;
    if (annotations && Object.hasOwn(annotations, question)) delete annotations[question];
  }
  return {
    ...resolution,
    response: {
      ...response,
      content: {
        ...response.content,
        ...(answers ? { answers } : {}),
        ...(annotations ? { annotations } : {}),
      },
    },
  };
}

/**
 * What remotes may see of a secret answer (R18.5): that there was one, never what it was. The agent that
 * asked gets it (it is in the log until delivered); every phone, every history, receipt and cached inbox
 * gets the mask. `viewOf` looks up the interaction an event belongs to.
 */
export function redactEventForRemotes(
  event: HostEvent,
  viewOf: (requestId: string) => InteractionView | undefined,
): HostEvent {
  if (event.type !== 'interaction.resolved') return event;
  const secrets = secretQuestions(viewOf(event.resolution.requestId));
  return secrets.size === 0 ? event : { ...event, resolution: redactResolution(event.resolution, secrets) };
}

export function redactViewForRemotes(view: InteractionView): InteractionView {
  const secrets = secretQuestions(view);
  if (secrets.size === 0 || !view.resolution) return view;
  return { ...view, resolution: redactResolution(view.resolution, secrets) };
}

export function redactResolutionForRemotes(
  resolution: InteractionResolution,
  view: InteractionView | undefined,
): InteractionResolution {
  return redactResolution(resolution, secretQuestions(view));
}
