import { type InteractionView, type MachineRef } from '../contracts';
import { projectLabel } from './format';
import { type HostView } from './host-view';

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

const byNewest = (a: InteractionView, b: InteractionView) =>
  a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0;

function endedAt(view: InteractionView): string {
  return view.resolution?.resolvedAt ?? view.withdrawnAt ?? view.createdAt;
}

function memo<T>(compute: (interactions: ReadonlyMap<string, InteractionView>) => T) {
  const cache = new WeakMap<ReadonlyMap<string, InteractionView>, T>();
  return (host: Pick<HostView, 'interactions'>): T => {
    const hit = cache.get(host.interactions);
    if (hit !== undefined) return hit;
    const value = compute(host.interactions);
    cache.set(host.interactions, value);
    return value;
  };
}

/** Pending, grouped by root session on its machine; groups and items newest first. */
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

export const selectPendingCount = memo((interactions) => {
  let count = 0;
  for (const view of interactions.values()) if (view.status === 'pending') count += 1;
  return count;
});

/** Resolved and withdrawn, most recently ended first. */
export const selectHistory = memo((interactions): InteractionView[] =>
  [...interactions.values()]
    .filter((view) => view.status !== 'pending')
    .sort((a, b) => (endedAt(a) < endedAt(b) ? 1 : endedAt(a) > endedAt(b) ? -1 : 0)),
);

export function historyTime(view: InteractionView): string {
  return endedAt(view);
}

/** A node of a root session's agent tree, built from `origin.path` (R7.2, R7.3). */
export interface SessionNode {
  key: string;
  name: string;
  depth: number;
  pending: number;
  resolved: number;
  last: InteractionView | null;
  items: InteractionView[];
  children: SessionNode[];
}

export interface SessionTree {
  /** `sessionKey`: machine and session. */
  key: string;
  sessionId: string;
  machine: MachineRef;
  project: string;
  root: SessionNode;
  lastAt: string;
}

function node(key: string, name: string, depth: number): SessionNode {
  return { key, name, depth, pending: 0, resolved: 0, last: null, items: [], children: [] };
}

export const selectSessions = memo((interactions): SessionTree[] => {
  const trees = new Map<string, SessionTree>();
  for (const view of interactions.values()) {
    const key = sessionKey(view);
    let tree = trees.get(key);
    if (!tree) {
      tree = {
        key,
        sessionId: view.sessionId,
        machine: view.machine,
        project: '',
        root: node('', '', 0),
        lastAt: view.createdAt,
      };
      trees.set(key, tree);
    }
    if (!tree.project) tree.project = projectLabel(view.context);
    if (view.createdAt > tree.lastAt) tree.lastAt = view.createdAt;
    const path = view.origin && view.origin.kind === 'subagent' ? view.origin.path : [];
    let cursor = tree.root;
    path.forEach((name, index) => {
      const key = path.slice(0, index + 1).join('/');
      let child = cursor.children.find((candidate) => candidate.key === key);
      if (!child) {
        child = node(key, name, index + 1);
        cursor.children.push(child);
      }
      cursor = child;
    });
    cursor.items.push(view);
    if (view.status === 'pending') cursor.pending += 1;
    else cursor.resolved += 1;
    if (!cursor.last || view.createdAt > cursor.last.createdAt) cursor.last = view;
  }
  const list = [...trees.values()];
  for (const tree of list) sortNode(tree.root);
  return list.sort((a, b) => (a.lastAt < b.lastAt ? 1 : -1));
});

function sortNode(target: SessionNode): void {
  target.items.sort(byNewest);
  target.children.sort((a, b) => a.name.localeCompare(b.name));
  for (const child of target.children) sortNode(child);
}

/** Pending + resolved counts of a node and everything under it. */
export function subtreeCounts(target: SessionNode): { pending: number; resolved: number } {
  let pending = target.pending;
  let resolved = target.resolved;
  for (const child of target.children) {
    const counts = subtreeCounts(child);
    pending += counts.pending;
    resolved += counts.resolved;
  }
  return { pending, resolved };
}

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
