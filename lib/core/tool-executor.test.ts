import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { askUserQuestionTool } from './ask-user-question-tool';
import { questionsInput } from './test-fixtures';
import { executeToolCall } from './tool-executor';
import {
  type BrokerResult,
  type PermissionBrokerPort,
  type PermissionRequest,
  type ToolDefinition,
  ToolExecutionError,
} from './tool-types';
import { expectItem } from './test-support/expect-item';

function broker(answer: (request: PermissionRequest) => BrokerResult | Promise<BrokerResult>) {
  const requests: PermissionRequest[] = [];
  const port: PermissionBrokerPort = {
    requestPermission: vi.fn(async (request: PermissionRequest) => {
      requests.push(request);
      return answer(request);
    }),
  };
  return { port, requests };
}

const modifyWith =
  (extra: Record<string, unknown>) =>
  (request: PermissionRequest): BrokerResult => ({
    decision: 'modify',
    modifiedInput: { ...(request.input as object), ...extra },
    resolvedAt: new Date(),
  });

function spiedAskTool() {
  const handler = vi.fn(askUserQuestionTool.handler);
  const tool: ToolDefinition<z.infer<typeof askUserQuestionTool.inputSchema>> = { ...askUserQuestionTool, handler };
  return { tool, handler };
}

describe('executeToolCall with AskUserQuestion', () => {
  it('[R3.1] sends a model call without answers to the broker as "ask"', async () => {
    const { port, requests } = broker(modifyWith({ answers: {} }));
    await executeToolCall({
      tool: askUserQuestionTool,
      input: questionsInput(1),
      sessionId: 's1',
      turnId: 't1',
      toolUseId: 'u1',
      broker: port,
      requestId: 'r1',
    });
    expect(requests).toEqual([
      expect.objectContaining({
        requestId: 'r1',
        sessionId: 's1',
        turnId: 't1',
        toolUseId: 'u1',
        toolName: 'AskUserQuestion',
        input: questionsInput(1),
      }),
    ]);
  });

  it('[R3.4] replaces the input with modifiedInput and returns the R4 text', async () => {
    const { port } = broker(modifyWith({ answers: { 'Q1?': 'Beta', 'Q2?': 'Alpha (Recommended)' } }));
    const result = await executeToolCall({
      tool: askUserQuestionTool,
      input: questionsInput(2),
      sessionId: 's',
      broker: port,
    });
    expect(result).toEqual({
      ok: true,
      content: expect.stringMatching(
        /^User has answered your questions: "Q1\?"="Beta", "Q2\?"="Alpha \(Recommended\)"\./,
      ),
      input: { ...questionsInput(2), answers: { 'Q1?': 'Beta', 'Q2?': 'Alpha (Recommended)' } },
    });
  });

  it('[R3.4] applies zod defaults before asking (multiSelect omitted by an older caller)', async () => {
    const { port, requests } = broker(modifyWith({ answers: {} }));
    const input = questionsInput(1);
    const { multiSelect: _omitted, ...legacyQuestion } = input.questions[0] ?? { multiSelect: false };
    await executeToolCall({
      tool: askUserQuestionTool,
      input: { questions: [legacyQuestion] },
      sessionId: 's',
      broker: port,
    });
    expect(expectItem(requests, 0).input).toEqual(input);
  });

  it('[R3.5] never runs the handler without answers: broker allow → recoverable error', async () => {
    const { tool, handler } = spiedAskTool();
    const { port } = broker(() => ({ decision: 'allow' }));
    const result = await executeToolCall({ tool, input: questionsInput(1), sessionId: 's', broker: port });
    expect(result).toEqual({
      ok: false,
      error: 'AskUserQuestion requires user answers before execution',
      recoverable: true,
    });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(expectItem(handler.mock.results, 0).type).toBe('throw');
  });

  it('[R3.5] a modify without answers (legacy approve) also fails recoverably', async () => {
    const { port } = broker(modifyWith({}));
    const result = await executeToolCall({
      tool: askUserQuestionTool,
      input: questionsInput(1),
      sessionId: 's',
      broker: port,
    });
    expect(result).toMatchObject({ ok: false, error: 'AskUserQuestion requires user answers before execution' });
  });

  it('[R3.6] a broker deny becomes the tool error the model sees, without running the handler', async () => {
    const { tool, handler } = spiedAskTool();
    const { port } = broker(() => ({ decision: 'deny', message: 'AskUserQuestion was declined: not now' }));
    const result = await executeToolCall({ tool, input: questionsInput(1), sessionId: 's', broker: port });
    expect(result).toEqual({ ok: false, error: 'AskUserQuestion was declined: not now', recoverable: true });
    expect(handler).not.toHaveBeenCalled();
  });

  it('[R2.8] invalid model input fails before asking and names the rule and path', async () => {
    const { port } = broker(modifyWith({ answers: {} }));
    const input = questionsInput(1);
    const bad = {
      questions: [
        {
          ...input.questions[0],
          options: [
            { label: 'Other', description: 'x' },
            { label: 'B', description: 'y' },
          ],
        },
      ],
    };
    const result = await executeToolCall({ tool: askUserQuestionTool, input: bad, sessionId: 's', broker: port });
    expect(result).toMatchObject({ ok: false, recoverable: true });
    expect(result.ok ? '' : result.error).toContain('questions[0].options[0].label: Do not include an Other option');
    expect(port.requestPermission).not.toHaveBeenCalled();
  });
});

describe('executeToolCall failure handling', () => {
  const echo: ToolDefinition<{ text: string }> = {
    name: 'Echo',
    description: 'echo',
    inputSchema: z.object({ text: z.string() }),
    metadata: { ...askUserQuestionTool.metadata, needsApproval: false, sideEffectScope: 'none' },
    handler: (input) => ({ content: String((input as { text: string }).text) }),
  };

  it('runs a tool without approval directly', async () => {
    const { port } = broker(() => ({ decision: 'deny', message: 'no' }));
    expect(await executeToolCall({ tool: echo, input: { text: 'hi' }, sessionId: 's', broker: port })).toEqual({
      ok: true,
      content: 'hi',
      input: { text: 'hi' },
    });
    expect(port.requestPermission).not.toHaveBeenCalled();
  });

  it('turns a checkPermission deny into a recoverable error', async () => {
    const { port } = broker(() => ({ decision: 'allow' }));
    const result = await executeToolCall({
      tool: { ...echo, checkPermission: () => 'deny' },
      input: { text: 'x' },
      sessionId: 's',
      broker: port,
    });
    expect(result).toMatchObject({ ok: false, recoverable: true, error: expect.stringContaining('denied') });
  });

  it('turns a throwing broker into ok:false', async () => {
    const { port } = broker(() => {
      throw new Error('socket closed');
    });
    const result = await executeToolCall({
      tool: askUserQuestionTool,
      input: questionsInput(1),
      sessionId: 's',
      broker: port,
    });
    expect(result).toEqual({ ok: false, error: expect.stringContaining('socket closed'), recoverable: true });
  });

  it('turns throwing handlers into ok:false, keeping ToolExecutionError texts', async () => {
    const { port } = broker(() => ({ decision: 'allow' }));
    const typed = {
      ...echo,
      handler: () => {
        throw new ToolExecutionError('try again', { recoverable: true });
      },
    };
    expect(await executeToolCall({ tool: typed, input: { text: 'x' }, sessionId: 's', broker: port })).toEqual({
      ok: false,
      error: 'try again',
      recoverable: true,
    });
    const crash = {
      ...echo,
      handler: () => {
        throw new TypeError('boom');
      },
    };
    expect(await executeToolCall({ tool: crash, input: { text: 'x' }, sessionId: 's', broker: port })).toEqual({
      ok: false,
      error: 'Echo failed: boom',
      recoverable: false,
    });
  });

  it('reports an abort while waiting for the user as a non-recoverable error', async () => {
    const controller = new AbortController();
    const port: PermissionBrokerPort = {
      requestPermission: (_request, options) =>
        new Promise((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    };
    const pending = executeToolCall({
      tool: askUserQuestionTool,
      input: questionsInput(1),
      sessionId: 's',
      broker: port,
      signal: controller.signal,
    });
    controller.abort();
    expect(await pending).toEqual({ ok: false, error: 'AskUserQuestion was aborted', recoverable: false });
  });

  it('never throws for malformed arguments', async () => {
    const { port } = broker(() => ({ decision: 'allow' }));
    for (const input of [undefined, null, 3, 'x', [], { questions: {} }]) {
      const result = await executeToolCall({ tool: askUserQuestionTool, input, sessionId: 's', broker: port });
      expect(result.ok).toBe(false);
    }
  });
});
