import { describe, expect, it } from 'vitest';
import { expectItem } from '../core/test-support/expect-item';
import { type HostEvent, type InteractionView, type Snapshot } from '../contracts';
import { applyEvents, fromSnapshot, withPendingPage } from './reduce';
import { selectHistory } from './history-selectors';
import { nextPendingId, selectInbox } from './selectors';
import { selectSessions } from './session-tree';
import { summarize } from './history-summary';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();
const view = (requestId: string, sessionId: string, s: number, path: string[] = []): InteractionView => ({
  requestId,
  machine: { id: 'local', name: 'workstation' },
  sessionId,
  toolName: 'AskUserQuestion',
  createdAt: at(s),
  status: 'pending',
  autoResolution: { status: 'disabled' },
  kind: 'question',
  ...(path.length > 0
    ? { origin: { kind: 'subagent' as const, label: path.at(-1) ?? '', path, depth: path.length } }
    : {}),
  input: {
    questions: [
      {
        question: `Q ${requestId}?`,
        header: 'H',
        multiSelect: false,
        options: [
          { label: 'A', description: 'a' },
          { label: 'B', description: 'b' },
        ],
      },
    ],
  },
});
const snapshot = (pending: InteractionView[], seq = 10): Snapshot => ({
  protocolVersion: 4,
  hostVersion: 'test',
  serverTime: at(30),
  logId: 'log-1',
  seq,
  hostName: 'workstation',
  pending,
  pendingTotal: pending.length,
  history: [],
  preferences: {
    askUserQuestionAutoResolutionEnabled: false,
    askUserQuestionAutoResolutionTimeoutMs: 60_000,
    notifyDelayMs: 0,
    notifyFinishedTurns: true,
    away: false,
  },
  devices: [],
  machines: [{ id: 'local', name: 'workstation', kind: 'hub', connectedAgents: 1 }],
});

describe('remote state fold', () => {
  it('[R9.9] takes the clock offset from the snapshot server time', () => {
    const host = fromSnapshot(snapshot([]), Date.parse(at(30)) - 2_500);
    expect(host.clockOffsetMs).toBe(2_500);
  });

  it('[R9.2] drops events at or below lastSeq (duplicates after resume) and applies the rest in order', () => {
    const host = fromSnapshot(snapshot([view('a', 's1', 1)]), 0);
    const resolved: HostEvent = {
      seq: 12,
      at: at(40),
      type: 'interaction.resolved',
      resolution: {
        requestId: 'a',
        response: { action: 'accept', content: { answers: {} } },
        resolvedBy: 'auto',
        resolvedAt: at(40),
      },
    };
    const delivered: HostEvent = { seq: 13, at: at(41), type: 'interaction.delivered', requestId: 'a' };
    const stale: HostEvent = { seq: 9, at: at(5), type: 'interaction.withdrawn', requestId: 'a' };
    const next = applyEvents(host, [delivered, stale, resolved]);
    expect(next.lastSeq).toBe(13);
    expect(next.interactions.get('a')).toMatchObject({ status: 'resolved', deliveredAt: at(41) });
    expect(applyEvents(next, [resolved, delivered])).toBe(next);
  });

  it('[R9.2] a snapshot after a host restart replaces state even with a lower seq', () => {
    const before = applyEvents(fromSnapshot(snapshot([view('a', 's1', 1)], 50), 0), []);
    const after = fromSnapshot(snapshot([view('b', 's1', 2)], 3), 0);
    expect(after.lastSeq).toBe(3);
    expect([...after.interactions.keys()]).toEqual(['b']);
    expect(before.interactions.has('a')).toBe(true);
  });

  it('[R12.7] a further page of pending adds what this remote does not know, and the total follows every batch', () => {
    const first = fromSnapshot({ ...snapshot([view('a', 's1', 1)]), pendingTotal: 3, pendingCursor: 4 }, 0);
    expect(first).toMatchObject({ pendingTotal: 3, pendingCursor: 4 });
    const resolvedA: HostEvent = {
      seq: 11,
      at: at(40),
      type: 'interaction.resolved',
      resolution: { requestId: 'a', response: { action: 'cancel' }, resolvedBy: 'user', resolvedAt: at(40) },
    };
    const afterEvent = applyEvents(first, [resolvedA], 2);
    expect(afterEvent.pendingTotal).toBe(2);
    // A batch with nothing new still brings the total.
    expect(applyEvents(afterEvent, [], 1).pendingTotal).toBe(1);
    const paged = withPendingPage(afterEvent, { pending: [view('a', 's1', 1), view('b', 's1', 2)], pendingTotal: 2 });
    // `a` was answered since the page was read: what the events said stands.
    expect(paged.interactions.get('a')?.status).toBe('resolved');
    expect(paged.interactions.get('b')?.status).toBe('pending');
    expect(paged).toMatchObject({ pendingTotal: 2, pendingCursor: null });
  });

  it('[R9.6] groups the inbox by root session, newest first, and builds the agent tree from origin.path', () => {
    const host = fromSnapshot(
      snapshot([
        view('a', 's1', 1),
        view('b', 's2', 5),
        view('c', 's1', 9, ['reviewer', 'tests']),
        view('d', 's1', 3, ['reviewer']),
      ]),
      0,
    );
    const groups = selectInbox(host);
    expect(groups.map((group) => group.sessionId)).toEqual(['s1', 's2']);
    expect(expectItem(groups, 0).items.map((item) => item.requestId)).toEqual(['c', 'd', 'a']);
    const tree = selectSessions(host).find((t) => t.sessionId === 's1');
    expect(tree?.root.children.map((child) => child.name)).toEqual(['reviewer']);
    expect(tree?.root.children[0]?.children[0]).toMatchObject({ name: 'tests', depth: 2, pending: 1 });
    expect(selectInbox(host)).toBe(groups);
  });

  it("[R13.9] a change in one session hands out the other sessions' groups unchanged, so only its own re-renders", () => {
    const host = fromSnapshot(snapshot([view('a', 's1', 1), view('b', 's2', 5), view('c', 's2', 9)]), 0);
    const before = selectInbox(host);
    const after = selectInbox(
      applyEvents(host, [{ seq: 11, at: at(31), type: 'interaction.withdrawn', requestId: 'c' }]),
    );
    expect(after.map((group) => group.sessionId)).toEqual(['s2', 's1']);
    expect(after.find((group) => group.sessionId === 's1')).toBe(before.find((group) => group.sessionId === 's1'));
    const s2 = after.find((group) => group.sessionId === 's2');
    expect(s2).not.toBe(before.find((group) => group.sessionId === 's2'));
    expect(s2?.items.map((item) => item.requestId)).toEqual(['b']);
  });

  it('[R9.7] summarizes endings from this device point of view', () => {
    const base = view('a', 's1', 1);
    const resolved = (
      answers: Record<string, string>,
      device: string,
      resolvedBy: 'user' | 'auto' = 'user',
    ): InteractionView => ({
      ...base,
      status: 'resolved',
      resolution: {
        requestId: 'a',
        response: { action: 'accept', content: { answers } },
        resolvedBy,
        resolvedAt: at(9),
        device: { id: device },
      },
    });
    expect(summarize(resolved({ 'Q a?': 'A' }, 'me'), 'me').kind).toBe('answered');
    expect(summarize(resolved({}, 'me'), 'me').kind).toBe('skipped');
    expect(summarize(resolved({ 'Q a?': 'A' }, 'laptop'), 'me').kind).toBe('other-device');
    expect(summarize(resolved({}, 'me', 'auto'), 'me').kind).toBe('auto');
    const host = fromSnapshot({ ...snapshot([]), history: [resolved({}, 'me')] }, 0);
    expect(selectHistory(host)).toHaveLength(1);
  });
});

describe('after answering', () => {
  it('[R9.3] offers the next unanswered question, same session first, then the inbox', () => {
    const host = fromSnapshot(snapshot([view('a', 's1', 1), view('b', 's1', 2), view('c', 's2', 9)]), 0);
    const groups = selectInbox(host);
    expect(nextPendingId(groups, 'b', 'local/s1', new Map())).toBe('a');
    expect(nextPendingId(groups, 'b', 'local/s1', new Map([['a', {}]]))).toBe('c');
    expect(
      nextPendingId(
        groups,
        'c',
        'local/s2',
        new Map([
          ['a', {}],
          ['b', {}],
        ]),
      ),
    ).toBeNull();
  });
});
