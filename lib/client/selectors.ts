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

/** The last inbox handed out, by group key: a group whose rows did not change is handed out again. */
let lastGroups = new Map<string, InboxGroup>();

/** `previous` when `next` holds the same rows in the same order (and the same labels), else `next`. */
function reuseGroup(previous: InboxGroup | undefined, next: InboxGroup): InboxGroup {
  if (
    !previous ||
    previous.project !== next.project ||
    previous.machine.id !== next.machine.id ||
    previous.machine.name !== next.machine.name ||
    previous.items.length !== next.items.length
  )
    return next;
  return previous.items.every((view, index) => view === next.items[index]) ? previous : next;
}

/**
 * The pending prompts by root session, newest first; finished turns are apart (selectFinishedTurns). A group whose rows are unchanged is the same object as in
 * the last inbox, so a new question re-renders its own session's group only (the memoized SessionGroup), not
 * every group of the inbox (R13.9).
 */
export const selectInbox = memo((interactions): InboxGroup[] => {
  const groups = new Map<string, InboxGroup>();
  for (const view of interactions.values()) {
    // A finished turn is no prompt the agent is blocked on: it has its own section (R19.8).
    if (view.status !== 'pending' || view.kind === 'finished-turn') continue;
    const key = sessionKey(view);
    let group = groups.get(key);
    if (!group) {
      group = { key, sessionId: view.sessionId, machine: view.machine, project: '', items: [] };
      groups.set(key, group);
    }
    group.items.push(view);
    if (!group.project) group.project = projectLabel(view.context);
  }
  const list = [...groups.values()].map((group) => {
    group.items.sort(byNewest);
    return reuseGroup(lastGroups.get(group.key), group);
  });
  list.sort((a, b) => byNewest(a.items[0] as InteractionView, b.items[0] as InteractionView));
  lastGroups = new Map(list.map((group) => [group.key, group]));
  return list;
});

/**
 * The finished turns waiting for a reply, newest first (R19.8): the inbox's quieter section, after the prompts that
 * block an agent mid-work.
 */
export const selectFinishedTurns = memo((interactions): InteractionView[] => {
  const turns: InteractionView[] = [];
  for (const view of interactions.values())
    if (view.status === 'pending' && view.kind === 'finished-turn') turns.push(view);
  return turns.sort(byNewest);
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
