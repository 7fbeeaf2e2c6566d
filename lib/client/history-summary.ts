import { type InteractionView } from '../contracts';

export type SummaryKind =
  | 'answered'
  | 'partly'
  | 'skipped'
  | 'auto'
  | 'declined'
  | 'cancelled'
  | 'other-device'
  | 'withdrawn'
  | 'terminal'
  | 'editor'
  | 'approved'
  | 'rejected'
  | 'allowed'
  | 'denied';

export interface Summary {
  kind: SummaryKind;
  answered: number;
  total: number;
}

/** The R9.7 answer summary of an ended interaction, from this device's point of view. */
export function summarize(view: InteractionView, myDeviceId: string | null): Summary {
  const total = view.kind === 'question' ? view.input.questions.length : 0;
  const resolution = view.resolution;
  if (view.status === 'withdrawn' && view.terminalAnswer) {
    // Answered first in the agent's own terminal (R18.6), with what it chose when the agent said.
    const response = view.terminalAnswer.response;
    const answered = response?.action === 'accept' ? Object.keys(response.content?.answers ?? {}).length : 0;
    return { kind: view.terminalAnswer.where === 'editor' ? 'editor' : 'terminal', answered, total };
  }
  if (view.status === 'withdrawn' || !resolution) return { kind: 'withdrawn', answered: 0, total };
  const response = resolution.response;
  const answered = response.action === 'accept' ? Object.keys(response.content?.answers ?? {}).length : 0;
  if (resolution.resolvedBy === 'auto') return { kind: 'auto', answered, total };
  if (resolution.resolvedBy === 'runtime') return { kind: 'withdrawn', answered, total };
  if (view.kind === 'plan-approval')
    return { kind: response.action === 'accept' ? 'approved' : 'rejected', answered, total };
  if (view.kind === 'permission') return { kind: response.action === 'accept' ? 'allowed' : 'denied', answered, total };
  // A finished turn's reply reads as its answer, Dismiss as a cancel (R19.11).
  if (view.kind === 'finished-turn')
    return { kind: response.action === 'accept' ? 'answered' : 'cancelled', answered, total };
  if (response.action === 'decline') return { kind: 'declined', answered, total };
  if (response.action === 'cancel') return { kind: 'cancelled', answered, total };
  const elsewhere = myDeviceId !== null && resolution.device !== undefined && resolution.device.id !== myDeviceId;
  // A form sent is answered, with its values or without (a page's Done), never skipped (R18.4).
  if (view.kind === 'form') return { kind: elsewhere ? 'other-device' : 'answered', answered, total };
  if (elsewhere && answered > 0) return { kind: 'other-device', answered, total };
  if (answered === 0) return { kind: 'skipped', answered, total };
  if (answered < total) return { kind: 'partly', answered, total };
  return { kind: 'answered', answered, total };
}
