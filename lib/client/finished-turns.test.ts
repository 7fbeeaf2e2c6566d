import { describe, expect, it } from 'vitest';
import { type InteractionView } from '../contracts';
import { finishedTurnTitle } from './agent-prompt-title';
import { summarize } from './history-summary';
import { selectPendingCount } from './pending-count';
import { selectFinishedTurns, selectInbox } from './selectors';
import { at, questionView } from './test-support/fixtures';

function turnView(requestId: string, second: number, sessionId = 't1'): InteractionView {
  return {
    requestId,
    machine: { id: 'local', name: 'workstation' },
    sessionId,
    toolName: 'finished-turn',
    createdAt: at(second),
    status: 'pending',
    autoResolution: { status: 'disabled' },
    kind: 'finished-turn',
    input: { status: 'completed', message: '## Done\n\nThe cache is in.', reply: 'prompt' },
  };
}

const host = (views: InteractionView[]) => ({ interactions: new Map(views.map((view) => [view.requestId, view])) });

describe('finished turns in the PWA (R19.8, R19.11)', () => {
  it('[R19.8] finished turns are not among the waiting prompts: they have their own list, newest first', () => {
    const state = host([questionView('q1'), turnView('turn:a', 1, 'a'), turnView('turn:b', 9, 'b')]);
    expect(selectInbox(state).flatMap((group) => group.items.map((view) => view.requestId))).toEqual(['q1']);
    expect(selectFinishedTurns(state).map((view) => view.requestId)).toEqual(['turn:b', 'turn:a']);
    expect(selectPendingCount(state)).toBe(3);
  });

  it('[R19.8] a row reads the first line the agent said, without heading marks', () => {
    expect(finishedTurnTitle({ message: '\n\n## Done\nmore' })).toBe('Done');
    expect(finishedTurnTitle({})).toBeUndefined();
  });

  it('[R19.11] History sums a finished turn up as answered (the reply), cancelled (dismissed) or withdrawn (not sent)', () => {
    const resolved = (response: { action: 'accept'; content: { reply: string } } | { action: 'cancel' }) => ({
      ...turnView('turn:a', 1),
      status: 'resolved' as const,
      resolution: { requestId: 'turn:a', response, resolvedBy: 'user' as const, resolvedAt: at(2) },
    });
    expect(summarize(resolved({ action: 'accept', content: { reply: 'go' } }), null).kind).toBe('answered');
    expect(summarize(resolved({ action: 'cancel' }), null).kind).toBe('cancelled');
    const refused = {
      ...resolved({ action: 'accept', content: { reply: 'go' } }),
      status: 'withdrawn' as const,
      withdrawnAt: at(3),
      withdrawnReason: 'The agent is already working on something else',
    };
    expect(summarize(refused, null).kind).toBe('withdrawn');
    expect(summarize({ ...refused, terminalAnswer: {} }, null).kind).toBe('terminal');
  });
});
