import { type InteractionView } from '../contracts';
import { memoByInteractions as memo } from './interactions-memo';

// History's own (apart from ./selectors.ts, so no other route carries them).

function endedAt(view: InteractionView): string {
  return view.resolution?.resolvedAt ?? view.withdrawnAt ?? view.createdAt;
}

/** Pending, grouped by root session on its machine; groups and items newest first. */

/** Resolved and withdrawn, most recently ended first. */
export const selectHistory = memo((interactions): InteractionView[] =>
  [...interactions.values()]
    .filter((view) => view.status !== 'pending')
    .sort((a, b) => (endedAt(a) < endedAt(b) ? 1 : endedAt(a) > endedAt(b) ? -1 : 0)),
);

export function historyTime(view: InteractionView): string {
  return endedAt(view);
}
