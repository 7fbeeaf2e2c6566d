import { type InteractionView, type MachineRef } from '../contracts';
import { projectLabel } from './format';
import { memoByInteractions as memo } from './interactions-memo';
import { byNewest, sessionKey } from './view-keys';

// Sessions' own (apart from ./selectors.ts, so no other route carries them).

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
  /** The session's first prompt, for its agent (R18.1): a session belongs to one agent. */
  first: InteractionView;
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
        first: view,
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
