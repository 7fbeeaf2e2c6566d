import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { type AskUserQuestionAnsweredInput } from '../contracts';
import { formatModelContent, NO_ANSWERS_TEXT } from './format-model-content';
import {
  buildSubagentInteractionOrigin,
  childSubagentContext,
  type SubagentContext,
} from './subagent-interaction-broker';
import { executeToolCall } from './tool-executor';
import { type PermissionBrokerPort, type ToolDefinition } from './tool-types';

const cast = <T>(value: unknown) => value as T;

describe('malformed input to core functions never escapes as an exception', () => {
  it('[R4.3] formatModelContent treats malformed parts as unanswered', () => {
    for (const value of [
      null,
      undefined,
      {},
      { questions: 'x', answers: [] },
      { questions: [null, { question: 3 }], answers: {} },
    ]) {
      expect(formatModelContent(cast<AskUserQuestionAnsweredInput>(value))).toBe(NO_ANSWERS_TEXT);
    }
    const odd = {
      questions: [{ question: 'Q?' }, { question: 'R?' }],
      answers: { 'Q?': 5, 'R?': 'yes' },
      annotations: { 'R?': 'x' },
    };
    expect(formatModelContent(cast<AskUserQuestionAnsweredInput>(odd))).toContain('skipped 1: "R?"="yes"');
  });

  it('[R7.1] subagent helpers cope with broken contexts', () => {
    const origin = buildSubagentInteractionOrigin(cast<SubagentContext>({ path: 'x', depth: Number.NaN }));
    expect(origin).toMatchObject({ kind: 'subagent', label: 'subagent', depth: 1, path: ['subagent'] });
    const child = childSubagentContext(cast<SubagentContext>({ sessionId: 'p', path: ['a'], depth: Number.NaN }), {
      agentId: 'b',
      agentName: 'b',
      sessionId: 'c',
    });
    expect(child).toMatchObject({ depth: 2, path: ['a', 'b'] });
  });

  it('[R3.1] executeToolCall survives a missing tool or broker', async () => {
    const broker: PermissionBrokerPort = cast<PermissionBrokerPort>({});
    expect(
      await executeToolCall({ tool: cast<ToolDefinition>(undefined), input: {}, sessionId: 's', broker }),
    ).toMatchObject({ ok: false });
    const tool: ToolDefinition = {
      name: 'T',
      description: '',
      inputSchema: z.unknown(),
      metadata: cast<ToolDefinition['metadata']>({ needsApproval: true }),
      handler: () => ({ content: 'ran' }),
    };
    expect(await executeToolCall({ tool, input: {}, sessionId: 's', broker })).toMatchObject({
      ok: false,
      recoverable: true,
    });
  });
});
