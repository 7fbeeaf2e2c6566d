import { type InteractionView, type MachineRef } from '../contracts';
import { projectLabel } from './format';
import { memoByInteractions as memo } from './interactions-memo';

/**
 * A root session on one machine (R17.4): two machines may use the same session id, so the key
 * holds both. A machine id never contains '/' (`local` or 16 hex characters).
 */
export function sessionKey(view: Pick<InteractionView, 'machine' | 'sessionId'>): string {
  return `${view.machine.id}/${view.sessionId}`;
}

export interface InboxGroup {
  /** `sessionKey`: machine and session. */
  key: string;
  sessionId: string;
  machine: MachineRef;
  project: string;
  items: InteractionView[];
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

export const selectInbox = memo((interactions): InboxGroup[] => {
  const groups = new Map<string, InboxGroup>();
  for (const view of interactions.values()) {
    if (view.status !== 'pending') continue;
    const key = sessionKey(view);
    let group = groups.get(key);
    if (!group) {
      group = { key, sessionId: view.sessionId, machine: view.machine, project: '', items: [] };
      groups.set(key, group);
    }
    group.items.push(view);
    if (!group.project) group.project = projectLabel(view.context);
  }
  const list = [...groups.values()];
  for (const group of list) group.items.sort(byNewest);
  list.sort((a, b) => byNewest(a.items[0] as InteractionView, b.items[0] as InteractionView));
  return list;
});

/**
 * Where to go after answering: the next waiting interaction the user has not answered
 * yet, preferring the same session (on the same machine: `sessionKey`), in inbox order;
 * null when nothing else waits.
 */
export function nextPendingId(
  groups: readonly InboxGroup[],
  currentId: string,
  key: string,
  answered: ReadonlyMap<string, unknown>,
): string | null {
  const open = (view: InteractionView) => view.requestId !== currentId && !answered.has(view.requestId);
  const same = groups.find((group) => group.key === key)?.items.find(open);
  if (same) return same.requestId;
  for (const group of groups) {
    const found = group.items.find(open);
    if (found) return found.requestId;
  }
  return null;
}
