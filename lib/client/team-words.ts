import { type InteractionResolution, type InteractionView } from '../contracts';
import { formatClock } from './format';
import { summarize, type SummaryKind } from './history-summary';
import { type Lang, type MessageKey, type Translate } from './i18n';
import './i18n-en-outcomes';

// Who answered a team hub's question, on which device and when (R21.22), as receipts and History say it. Only on a
// team hub: the hub sets the answering device's person there, never on a personal hub.

/** Outcomes a person gives (not auto-resolution, the agent's withdrawal or its terminal). */
const RESOLVED_BY: Partial<Record<SummaryKind, MessageKey>> = {
  answered: 'outcome.answeredBy',
  skipped: 'outcome.skippedBy',
  declined: 'outcome.declinedBy',
  cancelled: 'outcome.cancelledBy',
  approved: 'outcome.approvedBy',
  rejected: 'outcome.rejectedBy',
  allowed: 'outcome.allowedBy',
  denied: 'outcome.deniedBy',
};

/**
 * "Answered by Ana Lima on Pixel 8 at 14:02" (skip, decline, approve… worded as they were): a person's answer on a
 * team hub, from the resolution's `device.person`. Null when no person answered (auto-resolution, the agent, a
 * device that belongs to nobody, a personal hub), where the outcome's own words stay.
 */
export function resolvedByText(
  view: InteractionView,
  resolution: InteractionResolution,
  t: Translate,
  lang: Lang,
): string | null {
  const person = resolution.device?.person;
  if (person === undefined || resolution.resolvedBy !== 'user') return null;
  const label = resolution.device?.label;
  const who = label ? t('outcome.personOnDevice', { name: person.name, device: label }) : person.name;
  const time = formatClock(resolution.resolvedAt, lang);
  // Worded from the answer itself, whichever device looks at it.
  const summary = summarize({ ...view, status: 'resolved', resolution }, null);
  if (summary.kind === 'partly') return t('outcome.partlyBy', { who, time, n: summary.answered, m: summary.total });
  const key = RESOLVED_BY[summary.kind];
  return key === undefined ? null : t(key, { who, time });
}
