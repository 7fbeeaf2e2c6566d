import { describe, expect, it } from 'vitest';
import { type InteractionView, type MachineInfo, type MachineRef } from '../contracts';
import { expectItem } from '../core/test-support/expect-item';
import { effectiveFilter, onMachine, selectMachineOptions } from './filter-options';
import { selectShowMachines } from './machine-selectors';
import { machinePresence } from './machine-presence';
import { deliveryWaitsForMachine, waitsForMachine } from './machine-waits';
import { selectMachineSections } from './machine-sections';
import { fromSnapshot, type HostView } from './reduce';
import { selectHistory } from './history-selectors';
import { nextPendingId, selectInbox } from './selectors';
import { sessionKey } from './view-keys';
import { selectSessions } from './session-tree';
import { at, questionView, snapshotOf } from './test-support/fixtures';

const HUB: MachineRef = { id: 'local', name: 'workstation' };
const LAPTOP: MachineRef = { id: '0123456789abcdef', name: 'laptop' };
const CI: MachineRef = { id: 'fedcba9876543210', name: 'ci-runner' };

const hubInfo: MachineInfo = { ...HUB, kind: 'hub', connectedAgents: 1, lastSeenAt: at(30) };
const laptopInfo: MachineInfo = { ...LAPTOP, kind: 'joined', joinedAt: at(2), connectedAgents: 2, lastSeenAt: at(30) };
const ciInfo: MachineInfo = { ...CI, kind: 'joined', joinedAt: at(3), connectedAgents: 0, lastSeenAt: at(20) };

/** A view whose host id is made the way the hub makes it: `<machine id>:<runtime id>` for a joined machine. */
function ask(machine: MachineRef, runtimeId: string, sessionId: string, second: number): InteractionView {
  const requestId = machine.id === 'local' ? runtimeId : `${machine.id}:${runtimeId}`;
  return { ...questionView(requestId, sessionId), machine, createdAt: at(second) };
}

function ended(view: InteractionView, second: number): InteractionView {
  return {
    ...view,
    status: 'resolved',
    resolution: {
      requestId: view.requestId,
      response: { action: 'accept', content: { answers: {} } },
      resolvedBy: 'user',
      resolvedAt: at(second),
    },
  };
}

function host(pending: InteractionView[], machines: MachineInfo[], history: InteractionView[] = []): HostView {
  return fromSnapshot({ ...snapshotOf(pending, 10), history, machines }, 0);
}

describe('machines on the phone: when to show them', () => {
  it('[R17.3] a hub alone shows no machine level; a joined machine, or history from one, does', () => {
    expect(selectShowMachines(host([ask(HUB, 'a', 's1', 1)], [hubInfo]))).toBe(false);
    expect(selectShowMachines(host([ask(HUB, 'a', 's1', 1)], [hubInfo, laptopInfo]))).toBe(true);
    // The laptop was revoked since: its history still needs telling apart from the hub's.
    expect(selectShowMachines(host([], [hubInfo], [ended(ask(LAPTOP, 'a', 's1', 1), 5)]))).toBe(true);
    // A cached inbox has no live list yet; what it holds still names its machines.
    expect(selectShowMachines(host([ask(LAPTOP, 'a', 's1', 1)], []))).toBe(true);
    expect(selectShowMachines(host([ask(HUB, 'a', 's1', 1)], []))).toBe(false);
  });
});

describe('machines on the phone: the inbox by machine, then session', () => {
  it('[R17.3][R17.4] the same session id on two machines is two sessions; machines with nothing waiting have no section', () => {
    const state = host(
      [
        ask(HUB, 'req-1', 'same-session', 1),
        ask(LAPTOP, 'req-1', 'same-session', 4),
        ask(LAPTOP, 'req-2', 'other', 2),
        ask(HUB, 'req-3', 'same-session', 3),
      ],
      [hubInfo, laptopInfo, ciInfo],
    );
    const groups = selectInbox(state);
    expect(groups.map((group) => group.key)).toEqual([
      `${LAPTOP.id}/same-session`,
      'local/same-session',
      `${LAPTOP.id}/other`,
    ]);
    const sections = selectMachineSections(state);
    expect(sections.map((section) => [section.machine.name, section.count])).toEqual([
      ['laptop', 2],
      ['workstation', 2],
    ]);
    const laptop = expectItem(sections, 0);
    expect(laptop.info).toBe(laptopInfo);
    expect(laptop.groups.map((group) => group.sessionId)).toEqual(['same-session', 'other']);
    expect(expectItem(laptop.groups, 0).items.map((view) => view.requestId)).toEqual([`${LAPTOP.id}:req-1`]);
    expect(expectItem(sections, 1).groups.flatMap((group) => group.items.map((view) => view.requestId))).toEqual([
      'req-3',
      'req-1',
    ]);
    expect(selectMachineSections(state)).toBe(sections);
  });

  it('[R17.9] a machine list that changes one machine keeps every other machine’s section as it was', () => {
    const views = host([ask(HUB, 'a', 's', 1), ask(LAPTOP, 'b', 's', 2), ask(CI, 'c', 's', 3)], []).interactions;
    const before = selectMachineSections({ interactions: views, machines: [hubInfo, laptopInfo, ciInfo] });
    // The CI runner's agent is back: a new list, with equal but new entries for the other two.
    const after = selectMachineSections({
      interactions: views,
      machines: [{ ...hubInfo }, { ...laptopInfo }, { ...ciInfo, connectedAgents: 1 }],
    });
    expect(after.map((section) => section.machine.id)).toEqual([CI.id, LAPTOP.id, HUB.id]);
    expect(expectItem(after, 1)).toBe(expectItem(before, 1));
    expect(expectItem(after, 2)).toBe(expectItem(before, 2));
    expect(expectItem(after, 0)).not.toBe(expectItem(before, 0));
    expect(expectItem(after, 0).info?.connectedAgents).toBe(1);
    expect(expectItem(after, 0).groups).toBe(expectItem(before, 0).groups);
  });

  it('[R17.3] a section is named as the hub lists the machine now, else as it asked', () => {
    const renamed = { ...laptopInfo, name: 'Ada’s laptop' };
    expect(selectMachineSections(host([ask(LAPTOP, 'a', 's', 1)], [hubInfo, renamed]))[0]?.machine.name).toBe(
      'Ada’s laptop',
    );
    const cached = selectMachineSections(host([ask(LAPTOP, 'a', 's', 1)], []));
    expect(cached[0]).toMatchObject({ machine: LAPTOP, info: undefined });
  });

  it('[R9.3][R17.4] the next question after answering stays in the same session on the same machine', () => {
    const state = host(
      [ask(HUB, 'a', 's1', 1), ask(LAPTOP, 'b', 's1', 9), ask(LAPTOP, 'c', 's1', 8), ask(HUB, 'd', 's1', 2)],
      [hubInfo, laptopInfo],
    );
    const groups = selectInbox(state);
    expect(nextPendingId(groups, 'd', sessionKey(ask(HUB, 'd', 's1', 2)), new Map())).toBe('a');
    expect(nextPendingId(groups, `${LAPTOP.id}:b`, `${LAPTOP.id}/s1`, new Map())).toBe(`${LAPTOP.id}:c`);
  });

  it('[R17.4] Sessions keeps one tree per machine and session', () => {
    const state = host(
      [ask(HUB, 'a', 's1', 1), ask(LAPTOP, 'a', 's1', 2)],
      [hubInfo, laptopInfo],
      [ended(ask(LAPTOP, 'z', 's1', 0), 5)],
    );
    const trees = selectSessions(state);
    expect(trees.map((tree) => [tree.machine.name, tree.sessionId, tree.root.pending, tree.root.resolved])).toEqual([
      ['laptop', 's1', 1, 1],
      ['workstation', 's1', 1, 0],
    ]);
  });
});

describe('machines on the phone: who is connected (R17.6)', () => {
  const state = host(
    [ask(CI, 'a', 's1', 1), ask(LAPTOP, 'b', 's1', 2)],
    [hubInfo, laptopInfo, ciInfo],
    [ended(ask(CI, 'c', 's1', 0), 5), { ...ended(ask(CI, 'd', 's1', 0), 6), deliveredAt: at(7) }],
  );

  it('[R17.6] a machine without agents connected is away; not live, nothing is claimed', () => {
    expect(machinePresence(laptopInfo, true)).toBe('connected');
    expect(machinePresence(ciInfo, true)).toBe('away');
    expect(machinePresence(ciInfo, false)).toBe('unknown');
    expect(machinePresence(undefined, true)).toBe('unknown');
  });

  it('[R17.6] its waiting prompts wait for it to come back, and so do answers it has not received', () => {
    const view = (id: string) => {
      const found = state.interactions.get(id);
      if (!found) throw new Error(`no ${id}`);
      return found;
    };
    expect(waitsForMachine(view(`${CI.id}:a`), state, true)).toBe(true);
    expect(waitsForMachine(view(`${CI.id}:a`), state, false)).toBe(false);
    expect(waitsForMachine(view(`${LAPTOP.id}:b`), state, true)).toBe(false);
    expect(deliveryWaitsForMachine(view(`${CI.id}:c`), state, true)).toBe(true);
    expect(deliveryWaitsForMachine(view(`${CI.id}:d`), state, true)).toBe(false);
    const back = { ...state, machines: [hubInfo, laptopInfo, { ...ciInfo, connectedAgents: 1 }] };
    expect(waitsForMachine(view(`${CI.id}:a`), back, true)).toBe(false);
    expect(deliveryWaitsForMachine(view(`${CI.id}:c`), back, true)).toBe(false);
  });
});

describe('machines on the phone: filters (R17.3)', () => {
  const old = { id: 'aaaaaaaaaaaaaaaa', name: 'old-box' };
  const state = host(
    [ask(HUB, 'a', 's1', 1), ask(LAPTOP, 'a', 's1', 2)],
    [hubInfo, laptopInfo, ciInfo],
    [ended(ask(old, 'x', 's9', 0), 3), ended(ask(LAPTOP, 'y', 's2', 0), 4), ended(ask(HUB, 'z', 's1', 0), 5)],
  );

  it('[R17.3] offers the hub first, then joined machines, then machines only on record', () => {
    expect(selectMachineOptions(state)).toEqual([
      { id: 'local', name: 'workstation', kind: 'hub' },
      { id: LAPTOP.id, name: 'laptop', kind: 'joined' },
      { id: CI.id, name: 'ci-runner', kind: 'joined' },
      { id: old.id, name: 'old-box', kind: 'gone' },
    ]);
  });

  it('[R17.3] filters History and Sessions by machine; a remembered machine that is gone means all', () => {
    const history = selectHistory(state);
    expect(history.filter((view) => onMachine(view, LAPTOP.id)).map((view) => view.requestId)).toEqual([
      `${LAPTOP.id}:y`,
    ]);
    expect(history.filter((view) => onMachine(view, ''))).toHaveLength(3);
    const trees = selectSessions(state).filter((tree) => onMachine(tree, 'local'));
    expect(trees.map((tree) => tree.key)).toEqual(['local/s1']);
    const options = selectMachineOptions(state);
    expect(effectiveFilter(CI.id, options)).toBe(CI.id);
    expect(effectiveFilter('bbbbbbbbbbbbbbbb', options)).toBe('');
  });
});
