import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, type HostEvent, type InteractionRecord, type NewHostEvent } from '../contracts';
import { HostProjection } from './projection';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();

function record(requestId: string): InteractionRecord {
  return {
    kind: 'permission',
    requestId,
    machine: { id: 'local', name: 'workstation' },
    sessionId: 's1',
    toolName: 'Bash',
    createdAt: at(0),
    input: { command: 'ls' },
  };
}

describe('host projection', () => {
  it('[R10.2] lists pending oldest first and history newest first, from the statuses the fold leaves', () => {
    const projection = new HostProjection();
    const events: HostEvent[] = [];
    const push = (event: NewHostEvent) => events.push({ ...event, seq: events.length + 1 } as HostEvent);
    for (const id of ['a', 'b', 'c', 'd']) push({ type: 'interaction.requested', at: at(1), interaction: record(id) });
    push({ type: 'interaction.withdrawn', at: at(2), requestId: 'c' });
    push({
      type: 'interaction.resolved',
      at: at(3),
      resolution: { requestId: 'a', response: { action: 'accept' }, resolvedBy: 'user', resolvedAt: at(3) },
    });
    push({ type: 'UserInputAutoResolutionUpdated', at: at(4), requestId: 'd', autoResolution: { status: 'disabled' } });
    for (const event of events) projection.apply(event);

    expect(projection.seq).toBe(7);
    expect(projection.pending().map((view) => view.requestId)).toEqual(['b', 'd']);
    expect(projection.history(10).map((view) => view.requestId)).toEqual(['a', 'c']);
    expect(projection.history(1).map((view) => view.requestId)).toEqual(['a']);
    expect(projection.pending()[1]).toBe(projection.get('d'));
    expect(projection.interactions.size).toBe(4);
  });

  it('[R6.1] uses the default preferences until the log sets them', () => {
    const projection = new HostProjection();
    expect(projection.preferences).toEqual(DEFAULT_PREFERENCES);
    const preferences = {
      askUserQuestionAutoResolutionEnabled: true,
      askUserQuestionAutoResolutionTimeoutMs: 30_000,
      notifyDelayMs: 0,
      notifyFinishedTurns: true,
      away: false,
    };
    expect(projection.apply({ seq: 1, at: at(1), type: 'preferences.updated', preferences })).toBeUndefined();
    expect(projection.preferences).toEqual(preferences);
  });
});
