import { type InteractionView } from '../contracts';

// How every screen keys, labels and orders interactions: apart from the inbox's grouping (./selectors.ts) so
// History, Sessions and the card carry only these few lines (R13.4).

/**
 * A root session on one machine (R17.4): two machines may use the same session id, so the key
 * holds both. A machine id never contains '/' (`local` or 16 hex characters).
 */
export function sessionKey(view: Pick<InteractionView, 'machine' | 'sessionId'>): string {
  return `${view.machine.id}/${view.sessionId}`;
}

/** "reviewer › tests" for a subagent, '' for the root agent (R9.6). */
export function originLabel(view: Pick<InteractionView, 'origin'>): string {
  const origin = view.origin;
  if (!origin || origin.kind === 'root' || origin.depth === 0) return '';
  if (origin.path.length > 0) return origin.path.join(' › ');
  return origin.label;
}

export const byNewest = (a: InteractionView, b: InteractionView) =>
  a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0;
