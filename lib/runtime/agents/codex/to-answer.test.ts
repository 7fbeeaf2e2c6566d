import { describe, expect, it } from 'vitest';
import { type InteractionResponse } from '../../../contracts';
import {
  commandApprovalParams,
  mcpToolApprovalParams,
  permissionsApprovalParams,
  requestUserInputParams,
} from './test-fixtures';
import { CODEX_PROMPT_METHODS } from './protocol';
import { ANSWERED_IN_TERMINAL_REASON, CODEX_WENT_ON_REASON, resolvedElsewhereReason } from './terminal-answer';
import { DECLINE_STEER_PREFIX, toCodexReply } from './to-answer';
import { toCodexPrompt, type CodexAnswerPlan } from './to-interaction';

function planOf(method: string, params: unknown): CodexAnswerPlan {
  const result = toCodexPrompt(method, params, {});
  if ('unsupported' in result) throw new Error(result.unsupported);
  return result.plan;
}

const question = planOf(CODEX_PROMPT_METHODS.question, requestUserInputParams);
const accept = (content: Extract<InteractionResponse, { action: 'accept' }>['content']): InteractionResponse => ({
  action: 'accept',
  content,
});

describe('[R18.11] Codex question answers in Codex’s format', () => {
  it('[R18.11] an option by its exact label, "Other" text as None of the above + note, a secret as typed, a skip left out', () => {
    const reply = toCodexReply(
      question,
      accept({
        answers: {
          'Which color?': 'Red (Recommended)',
          'Which size?': 'Extra large, please',
          'Paste a token?': 's3cret',
        },
      }),
    );
    expect(reply).toEqual({
      result: {
        answers: {
          color: { answers: ['Red (Recommended)'] },
          size: { answers: ['None of the above', 'user_note: Extra large, please'] },
          token: { answers: ['None of the above', 'user_note: s3cret'] },
        },
      },
    });
    expect(toCodexReply(question, accept({ answers: { 'Which size?': 'Large' } }))).toEqual({
      result: { answers: { size: { answers: ['Large'] } } },
    });
  });

  it('[R18.11] a note on a chosen option follows its label; a note alone is a note', () => {
    const reply = toCodexReply(
      question,
      accept({
        answers: { 'Which color?': 'Blue' },
        annotations: { 'Which color?': { notes: 'navy if possible' }, 'Which size?': { notes: 'ask me later' } },
      }),
    );
    expect(reply).toEqual({
      result: {
        answers: {
          color: { answers: ['Blue', 'user_note: navy if possible'] },
          size: { answers: ['user_note: ask me later'] },
        },
      },
    });
  });

  it('[R18.11] skip all answers none; a decline carries its reason as a note; cancel interrupts the turn', () => {
    expect(toCodexReply(question, accept({ answers: {} }))).toEqual({ result: { answers: {} } });
    expect(toCodexReply(question, { action: 'decline' })).toEqual({ result: { answers: {} } });
    expect(toCodexReply(question, { action: 'decline', message: 'use the defaults' })).toEqual({
      result: {
        answers: {
          color: { answers: ['user_note: use the defaults'] },
          size: { answers: ['user_note: use the defaults'] },
          token: { answers: ['user_note: use the defaults'] },
        },
      },
    });
    expect(toCodexReply(question, { action: 'cancel' })).toEqual({ interrupt: true });
  });

  it('[R18.11] a free-text question sends its text as the terminal does, a note', () => {
    const plan = planOf(CODEX_PROMPT_METHODS.question, {
      ...requestUserInputParams,
      questions: [{ id: 'why', header: 'Why', question: 'Why?', isOther: true, isSecret: false, options: [] }],
    });
    expect(toCodexReply(plan, accept({ answers: { 'Why?': 'because' } }))).toEqual({
      result: { answers: { why: { answers: ['user_note: because'] } } },
    });
  });
});

describe('[R18.12] Codex approval and form answers', () => {
  it('[R18.12] a command: the listed decision for the choice taken; decline with the reason passed on; cancel', () => {
    const plan = planOf(CODEX_PROMPT_METHODS.command, commandApprovalParams);
    expect(toCodexReply(plan, accept({ choice: 'accept' }))).toEqual({ result: { decision: 'accept' } });
    expect(toCodexReply(plan, accept({ choice: 'accept-rule-1' }))).toEqual({
      result: { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch'] } } },
    });
    expect(toCodexReply(plan, { action: 'decline' })).toEqual({ result: { decision: 'decline' } });
    expect(toCodexReply(plan, { action: 'decline', message: 'not outside the repo' })).toEqual({
      result: { decision: 'decline' },
      steer: `${DECLINE_STEER_PREFIX}not outside the repo`,
    });
    expect(toCodexReply(plan, { action: 'cancel' })).toEqual({ result: { decision: 'cancel' } });
  });

  it('[R18.12] a file change: accept, accept for the session, decline, cancel', () => {
    const plan: CodexAnswerPlan = { type: 'file-change' };
    expect(toCodexReply(plan, accept({ choice: 'accept' }))).toEqual({ result: { decision: 'accept' } });
    expect(toCodexReply(plan, accept({ choice: 'accept-session' }))).toEqual({
      result: { decision: 'acceptForSession' },
    });
    expect(toCodexReply(plan, { action: 'decline' })).toEqual({ result: { decision: 'decline' } });
    expect(toCodexReply(plan, { action: 'cancel' })).toEqual({ result: { decision: 'cancel' } });
  });

  it('[R18.12] permissions: what was asked for the turn or the session; nothing granted is a deny', () => {
    const plan = planOf(CODEX_PROMPT_METHODS.permissions, permissionsApprovalParams);
    expect(toCodexReply(plan, accept({ choice: 'session' }))).toEqual({
      result: { permissions: { fileSystem: { write: ['/work/cache'] } }, scope: 'session' },
    });
    expect(toCodexReply(plan, { action: 'decline' })).toEqual({ result: { permissions: {}, scope: 'turn' } });
  });

  it('[R18.12] an MCP tool call: allow once, for the session (persist), decline; a form sends its values', () => {
    const plan = planOf(CODEX_PROMPT_METHODS.elicitation, mcpToolApprovalParams);
    expect(toCodexReply(plan, accept({ choice: 'allow' }))).toEqual({
      result: { action: 'accept', content: {}, _meta: null },
    });
    expect(toCodexReply(plan, accept({ choice: 'allow-session' }))).toEqual({
      result: { action: 'accept', content: {}, _meta: { persist: 'session' } },
    });
    expect(toCodexReply(plan, { action: 'decline' })).toEqual({
      result: { action: 'decline', content: null, _meta: null },
    });
    expect(toCodexReply({ type: 'form' }, accept({ values: { color: 'blue' } }))).toEqual({
      result: { action: 'accept', content: { color: 'blue' }, _meta: null },
    });
    expect(toCodexReply({ type: 'form' }, { action: 'cancel' })).toEqual({
      result: { action: 'cancel', content: null, _meta: null },
    });
    expect(toCodexReply({ type: 'url' }, accept(undefined))).toEqual({
      result: { action: 'accept', content: null, _meta: null },
    });
  });
});

describe('[R18.13] a prompt settled in Codex first', () => {
  it('[R18.13] says "Answered in the terminal", or that Codex went on after its own 2 minutes', () => {
    expect(resolvedElsewhereReason({ nonBlocking: false }, 200_000)).toBe(ANSWERED_IN_TERMINAL_REASON);
    expect(resolvedElsewhereReason({ nonBlocking: true }, 30_000)).toBe(ANSWERED_IN_TERMINAL_REASON);
    expect(resolvedElsewhereReason({ nonBlocking: true }, 118_000)).toBe(CODEX_WENT_ON_REASON);
  });
});
