import { describe, expect, it } from 'vitest';
import { type HostEvent, type InteractionRecord, type InteractionResolution, type NewHostEvent } from '../contracts';
import { activeDevices, activeMachines, emptyHostFold, foldHostEvent, type HostFold } from './host-fold';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();

function record(requestId: string): InteractionRecord {
  return {
    kind: 'question',
    requestId,
    machine: { id: 'local', name: 'workstation' },
    sessionId: 's1',
    toolName: 'AskUserQuestion',
    createdAt: at(0),
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
  };
}

function resolution(requestId: string, clientResponseId = 'c1'): InteractionResolution {
  return {
    requestId,
    response: { action: 'accept', content: { answers: { [`Q ${requestId}?`]: 'A' } } },
    resolvedBy: 'user',
    resolvedAt: at(5),
    clientResponseId,
  };
}

/** Folds events numbered from the fold's seq on, as the host's log would number them. */
function fold(target: HostFold, ...events: NewHostEvent[]) {
  return events.map((event) => foldHostEvent(target, { ...event, seq: target.seq + 1 } as HostEvent));
}

const requested = (requestId: string) =>
  ({ type: 'interaction.requested', at: at(0), interaction: record(requestId) }) as const;
const resolved = (requestId: string, clientResponseId?: string) =>
  ({ type: 'interaction.resolved', at: at(5), resolution: resolution(requestId, clientResponseId) }) as const;

describe('host event fold', () => {
  it('[R12.13] a reopened interaction is pending again without its answer; a delivered one stays answered', () => {
    const state = emptyHostFold();
    const [, , reopened] = fold(state, requested('a'), resolved('a'), {
      type: 'interaction.reopened',
      at: at(9),
      requestId: 'a',
    });
    expect(reopened).toMatchObject({ status: 'pending', autoResolution: { status: 'disabled' } });
    expect(reopened?.resolution).toBeUndefined();
    const [, , , late] = fold(
      state,
      requested('b'),
      resolved('b'),
      { type: 'interaction.delivered', at: at(6), requestId: 'b' },
      { type: 'interaction.reopened', at: at(9), requestId: 'b' },
    );
    expect(late).toBeUndefined();
    expect(state.interactions.get('b')?.status).toBe('resolved');
  });

  it('[R10.2] folds a lifecycle: requested, auto-resolution scheduled, resolved, delivered', () => {
    const state = emptyHostFold();
    const autoResolution = { status: 'scheduled', deadlineAt: at(60), timeoutMs: 60_000, scheduledAt: at(0) } as const;
    const [first, scheduled, answered, delivered] = fold(
      state,
      requested('a'),
      { type: 'UserInputAutoResolutionUpdated', at: at(0), requestId: 'a', autoResolution },
      resolved('a'),
      { type: 'interaction.delivered', at: at(6), requestId: 'a' },
    );
    expect(first).toMatchObject({ requestId: 'a', status: 'pending', autoResolution: { status: 'disabled' } });
    expect(scheduled).toMatchObject({ status: 'pending', autoResolution });
    expect(answered).toMatchObject({ status: 'resolved', resolution: resolution('a'), autoResolution });
    expect(delivered).toMatchObject({ status: 'resolved', deliveredAt: at(6) });
    expect(state.seq).toBe(4);
    expect(state.interactions.get('a')).toBe(delivered);
  });

  it('[R10.3] the first resolution wins; nothing changes an ended interaction', () => {
    const state = emptyHostFold();
    fold(state, requested('a'), resolved('a', 'first'), requested('b'), {
      type: 'interaction.withdrawn',
      at: at(7),
      requestId: 'b',
    });
    const ended = { a: state.interactions.get('a'), b: state.interactions.get('b') };
    const changes = fold(
      state,
      resolved('a', 'second'),
      resolved('b'),
      { type: 'interaction.withdrawn', at: at(8), requestId: 'a' },
      { type: 'UserInputAutoResolutionUpdated', at: at(8), requestId: 'a', autoResolution: { status: 'disabled' } },
      requested('a'),
    );
    expect(changes).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(state.interactions.get('a')).toBe(ended.a);
    expect(state.interactions.get('a')?.resolution?.clientResponseId).toBe('first');
    expect(state.interactions.get('b')).toBe(ended.b);
    expect(state.seq).toBe(9);
  });

  it('[R18.25] an answer the agent refused (its terminal answered first) withdraws the resolved interaction, once', () => {
    const state = emptyHostFold();
    fold(state, requested('a'), resolved('a'));
    const [refused, again] = fold(
      state,
      {
        type: 'interaction.withdrawn',
        at: at(9),
        requestId: 'a',
        reason: 'Answered in the terminal',
        terminalAnswer: {},
        afterAnswer: true,
      },
      { type: 'interaction.withdrawn', at: at(10), requestId: 'a', afterAnswer: true },
    );
    expect(refused).toMatchObject({
      status: 'withdrawn',
      withdrawnAt: at(9),
      withdrawnReason: 'Answered in the terminal',
      terminalAnswer: {},
      // What the phone had sent stays on record.
      resolution: { clientResponseId: 'c1' },
    });
    expect(again).toBeUndefined();
  });

  it('[R10.5] logs delivery once, and only of a resolved interaction', () => {
    const state = emptyHostFold();
    const delivered = (s: number) => ({ type: 'interaction.delivered', at: at(s), requestId: 'a' }) as const;
    const [, early, , first, second] = fold(
      state,
      requested('a'),
      delivered(1),
      resolved('a'),
      delivered(6),
      delivered(9),
    );
    expect(early).toBeUndefined();
    expect(first).toMatchObject({ deliveredAt: at(6) });
    expect(second).toBeUndefined();
    expect(state.interactions.get('a')?.deliveredAt).toBe(at(6));
  });

  it('keeps a withdrawal reason only when there is one', () => {
    const state = emptyHostFold();
    const [, , withReason, , without] = fold(
      state,
      requested('a'),
      requested('b'),
      { type: 'interaction.withdrawn', at: at(3), requestId: 'a', reason: 'tool call aborted' },
      requested('c'),
      { type: 'interaction.withdrawn', at: at(4), requestId: 'c' },
    );
    expect(withReason).toMatchObject({ status: 'withdrawn', withdrawnAt: at(3), withdrawnReason: 'tool call aborted' });
    expect(without).toMatchObject({ status: 'withdrawn', withdrawnAt: at(4) });
    expect(without && 'withdrawnReason' in without).toBe(false);
    expect(state.interactions.get('b')?.status).toBe('pending');
  });

  it('[R6.1] takes preferences from the log, null until it sets them', () => {
    const state = emptyHostFold();
    expect(state.preferences).toBeNull();
    const preferences = {
      askUserQuestionAutoResolutionEnabled: true,
      askUserQuestionAutoResolutionTimeoutMs: 30_000,
      notifyDelayMs: 0,
      notifyFinishedTurns: true,
      away: false,
    };
    expect(fold(state, { type: 'preferences.updated', at: at(1), preferences })).toEqual([undefined]);
    expect(state.preferences).toEqual(preferences);
  });

  it('[R9.2] an event at or below seq is already folded in (a duplicate after a resume)', () => {
    const state = emptyHostFold();
    foldHostEvent(state, { seq: 12, at: at(0), type: 'interaction.requested', interaction: record('a') });
    const stale: HostEvent = { seq: 9, at: at(5), type: 'interaction.withdrawn', requestId: 'a' };
    const again: HostEvent = { seq: 12, at: at(5), type: 'interaction.withdrawn', requestId: 'a' };
    expect(foldHostEvent(state, stale)).toBeUndefined();
    expect(foldHostEvent(state, again)).toBeUndefined();
    expect(state.seq).toBe(12);
    expect(state.interactions.get('a')?.status).toBe('pending');
    expect(foldHostEvent(state, { ...again, seq: 13 })).toMatchObject({ status: 'withdrawn' });
  });

  it('replaces views instead of changing them, so a copy of the map keeps its own state', () => {
    const state = emptyHostFold();
    fold(state, requested('a'));
    const before = state.interactions.get('a');
    const copy: HostFold = { ...state, interactions: new Map(state.interactions) };
    fold(copy, resolved('a'));
    expect(before?.status).toBe('pending');
    expect(before && 'resolution' in before).toBe(false);
    expect(state.interactions.get('a')).toBe(before);
    expect(copy.interactions.get('a')?.status).toBe('resolved');
  });

  it('[R16.4][R16.5] folds devices: paired, renamed, revoked; a revoked device stays revoked', () => {
    const state = emptyHostFold();
    const phone = { id: 'p1', name: 'Phone', platform: 'Android · Chrome' };
    const changed = fold(
      state,
      { type: 'device.paired', at: at(1), device: phone },
      { type: 'device.paired', at: at(2), device: { ...phone, name: 'Impostor' } },
      { type: 'device.paired', at: at(3), device: { id: 'l1', name: 'Laptop', platform: 'Linux · Firefox' } },
      { type: 'device.renamed', at: at(4), deviceId: 'p1', name: 'Anna’s phone' },
      { type: 'device.revoked', at: at(5), deviceId: 'l1', byDeviceId: 'p1' },
      { type: 'device.renamed', at: at(6), deviceId: 'l1', name: 'Back again' },
      { type: 'device.revoked', at: at(7), deviceId: 'l1' },
    );
    expect(changed.every((view) => view === undefined)).toBe(true);
    expect(state.seq).toBe(7);
    expect(state.devices.get('p1')).toEqual({ ...phone, name: 'Anna’s phone', pairedAt: at(1) });
    expect(state.devices.get('l1')).toMatchObject({ name: 'Laptop', revokedAt: at(5) });
    expect(activeDevices(state).map((device) => device.id)).toEqual(['p1']);
  });

  it('[R17.1][R17.2] folds machines: joined, revoked; a second join of an id and a second revoke change nothing', () => {
    const state = emptyHostFold();
    const laptop = { id: '0123456789abcdef', name: 'laptop' };
    const devbox = { id: 'fedcba9876543210', name: 'devbox' };
    const changed = fold(
      state,
      { type: 'machine.joined', at: at(1), machine: laptop },
      { type: 'machine.joined', at: at(2), machine: { ...laptop, name: 'impostor' } },
      { type: 'machine.joined', at: at(3), machine: devbox },
      { type: 'machine.revoked', at: at(4), machineId: devbox.id, byDeviceId: 'p1' },
      { type: 'machine.revoked', at: at(5), machineId: devbox.id },
    );
    expect(changed.every((view) => view === undefined)).toBe(true);
    expect(state.machines.get(laptop.id)).toEqual({ ...laptop, joinedAt: at(1) });
    expect(state.machines.get(devbox.id)).toEqual({ ...devbox, joinedAt: at(3), revokedAt: at(4) });
    expect(activeMachines(state).map((machine) => machine.name)).toEqual(['laptop']);
  });
});
