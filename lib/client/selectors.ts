import { type InteractionView, type MachineRef } from '../contracts';
import { projectLabel } from './format';
import { memoByInteractions as memo } from './interactions-memo';
import { byNewest, sessionKey } from './view-keys';

export interface InboxGroup {
  /** `sessionKey`: machine and session. */
  key: string;
  sessionId: string;
  machine: MachineRef;
  project: string;
  items: InteractionView[];
}

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
