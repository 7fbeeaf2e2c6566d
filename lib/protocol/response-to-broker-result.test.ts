import { describe, expect, it } from 'vitest';
import { type AskUserQuestionInput } from '../contracts';
import {
  permissionResponseToBrokerResult,
  planApprovalResponseToBrokerResult,
  responseToBrokerResult,
  userInputResponseToBrokerResult,
} from './response-to-broker-result';

const input: AskUserQuestionInput = {
  questions: [
    {
      question: 'Which DB?',
      header: 'DB',
      options: [
        { label: 'Postgres', description: 'p' },
        { label: 'SQLite', description: 's' },
      ],
      multiSelect: false,
    },
    {
      question: 'Cache?',
      header: 'Cache',
      options: [
        { label: 'Redis', description: 'r' },
        { label: 'None', description: 'n' },
      ],
      multiSelect: false,
    },
  ],
};
const at = new Date('2030-01-01T00:00:00Z');

describe('userInputResponseToBrokerResult', () => {
  it('[R3.4] accept becomes modify with the normalized content merged into the input', () => {
    const result = userInputResponseToBrokerResult(
      input,
      {
        action: 'accept',
        content: {
          answers: { 'Which DB?': 'Postgres', bogus: 'x' },
          answer_1: 'Redis',
          annotations: { 'Cache?': { notes: 'fast' } },
        },
      },
      at,
    );
    expect(result).toEqual({
      decision: 'modify',
      modifiedInput: {
        ...input,
        answers: { 'Which DB?': 'Postgres', 'Cache?': 'Redis' },
        annotations: { 'Cache?': { notes: 'fast' } },
      },
      resolvedAt: at,
    });
  });

  it('[R3.4] accept without content modifies nothing beyond the input (legacy approve)', () => {
    expect(userInputResponseToBrokerResult(input, { action: 'accept' }, at)).toEqual({
      decision: 'modify',
      modifiedInput: input,
      resolvedAt: at,
    });
  });

  it('[R3.6] decline and cancel become deny with the fixed messages', () => {
    expect(userInputResponseToBrokerResult(input, { action: 'decline' })).toEqual({
      decision: 'deny',
      message: 'AskUserQuestion was declined',
    });
    expect(userInputResponseToBrokerResult(input, { action: 'cancel' })).toEqual({
      decision: 'deny',
      message: 'AskUserQuestion was cancelled',
    });
    expect(userInputResponseToBrokerResult(input, { action: 'explode' })).toEqual({
      decision: 'deny',
      message: 'AskUserQuestion was cancelled',
    });
  });

  it('[R3.7] a decline reason follows the R3.6 message', () => {
    expect(userInputResponseToBrokerResult(input, { action: 'decline', message: '  Not relevant any more ' })).toEqual({
      decision: 'deny',
      message: 'AskUserQuestion was declined: Not relevant any more',
    });
    expect(userInputResponseToBrokerResult(input, { action: 'decline', message: '   ' })).toEqual({
      decision: 'deny',
      message: 'AskUserQuestion was declined',
    });
  });
});

describe('plan approval and permission mapping', () => {
  it('[R3.2] plan approval: accept allows, decline carries the feedback', () => {
    expect(planApprovalResponseToBrokerResult({ action: 'accept' })).toEqual({ decision: 'allow' });
    expect(planApprovalResponseToBrokerResult({ action: 'decline', message: 'Split step 2' })).toEqual({
      decision: 'deny',
      message: 'The user rejected the plan: Split step 2',
    });
    expect(planApprovalResponseToBrokerResult({ action: 'decline' })).toMatchObject({
      message: expect.stringContaining('Stay in plan mode'),
    });
    expect(planApprovalResponseToBrokerResult({ action: 'cancel' })).toMatchObject({ decision: 'deny' });
  });

  it('[R3.2] permission: accept allows, decline denies with the reason', () => {
    expect(permissionResponseToBrokerResult({ action: 'accept' })).toEqual({ decision: 'allow' });
    expect(permissionResponseToBrokerResult({ action: 'decline', message: 'too risky' })).toEqual({
      decision: 'deny',
      message: 'The user denied this tool call: too risky',
    });
    expect(permissionResponseToBrokerResult({ action: 'cancel' })).toMatchObject({ decision: 'deny' });
  });

  it('[R3.2] dispatches by kind', () => {
    expect(responseToBrokerResult('question', input, { action: 'accept', content: { answers: {} } }, at)).toMatchObject(
      { decision: 'modify' },
    );
    expect(responseToBrokerResult('plan-approval', { plan: 'p' }, { action: 'accept' })).toEqual({ decision: 'allow' });
    expect(responseToBrokerResult('permission', {}, { action: 'decline' })).toEqual({
      decision: 'deny',
      message: 'The user denied this tool call',
    });
  });
});
