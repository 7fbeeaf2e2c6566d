import { describe, expect, it } from 'vitest';
import { formSettled, permissionSettled, ANSWERED_IN_TERMINAL_REASON, TURN_ENDED_REASON } from './terminal-answer';
import { formReply, permissionReply } from './to-answer';

const decisions = {
  once: { kind: 'approve-once' as const },
  session: { kind: 'approve-for-session' as const, approval: { kind: 'write' } },
  reject: { kind: 'reject' as const },
};

describe("[R18.32][R18.33] answers in Copilot's format", () => {
  it('[R18.32] a choice sends its decision; a denial carries the reason as feedback, or none (Copilot ends its turn)', () => {
    expect(permissionReply('s', 'r', decisions, { action: 'accept', content: { choice: 'session' } }).params).toEqual({
      sessionId: 's',
      requestId: 'r',
      result: { kind: 'approve-for-session', approval: { kind: 'write' } },
    });
    expect(
      permissionReply('s', 'r', decisions, { action: 'accept', content: { choice: 'reject' } }).params.result,
    ).toEqual({ kind: 'approve-once' });
    expect(
      permissionReply('s', 'r', decisions, { action: 'decline', message: ' use a temp dir ' }).params.result,
    ).toEqual({ kind: 'reject', feedback: 'use a temp dir' });
    expect(permissionReply('s', 'r', decisions, { action: 'decline' }).params.result).toEqual({ kind: 'reject' });
    expect(permissionReply('s', 'r', decisions, { action: 'cancel' }).params.result).toEqual({ kind: 'reject' });
  });

  it('[R18.33] a form sends its values, a decline or a cancel', () => {
    expect(formReply('s', 'e', { action: 'accept', content: { values: { db: 'SQLite' } } })).toMatchObject({
      method: 'session.ui.handlePendingElicitation',
      params: { sessionId: 's', requestId: 'e', result: { action: 'accept', content: { db: 'SQLite' } } },
    });
    expect(formReply('s', 'e', { action: 'decline' }).params.result).toEqual({ action: 'decline' });
  });

  it("[R18.34] what the terminal chose, as the card's terminal answer", () => {
    expect(permissionSettled({ kind: 'approved-for-session' }, ['once', 'session', 'reject'])).toEqual({
      reason: ANSWERED_IN_TERMINAL_REASON,
      terminalAnswer: { response: { action: 'accept', content: { choice: 'session' } } },
    });
    expect(permissionSettled({ kind: 'approved-for-location' }, ['once', 'reject']).terminalAnswer).toEqual({
      response: { action: 'accept', content: { choice: 'once' } },
    });
    expect(permissionSettled({ kind: 'cancelled' }, [])).toEqual({ reason: TURN_ENDED_REASON });
    expect(formSettled({ action: 'accept', content: { db: 'Postgres', nested: { a: 1 } } }).terminalAnswer).toEqual({
      response: { action: 'accept', content: { values: { db: 'Postgres' } } },
    });
  });
});
