import { afterEach, describe, expect, it, vi } from 'vitest';
import { type InteractionRequest, type InteractionResolution, type InteractionResponse } from '../contracts';
import { askUserQuestionTool } from '../core/ask-user-question-tool';
import { childSubagentContext, withSubagentInteractionBroker } from '../core/subagent-interaction-broker';
import { executeToolCall } from '../core/tool-executor';
import {
  InvalidInteractionRequestError,
  createInteractionBroker,
  type InteractionTransport,
} from './interaction-broker';
import { expectItem } from '../core/test-support/expect-item';

const questions = {
  questions: [
    {
      question: 'Which DB?',
      header: 'DB',
      options: [
        { label: 'Postgres (Recommended)', description: 'p' },
        { label: 'SQLite', description: 's' },
      ],
    },
    {
      question: 'Cache?',
      header: 'Cache',
      options: [
        { label: 'Redis', description: 'r' },
        { label: 'None', description: 'n' },
      ],
    },
  ],
};

interface Announce {
  request: InteractionRequest;
  signal: AbortSignal;
  resolve: (resolution: InteractionResolution) => void;
  reject: (error: unknown) => void;
}

function fakeTransport() {
  const announces: Announce[] = [];
  const withdrawn: { requestId: string; reason?: string }[] = [];
  const transport: InteractionTransport = {
    announce: (request, signal) =>
      new Promise((resolve, reject) => {
        announces.push({ request, signal, resolve, reject });
      }),
    withdraw: async (requestId, reason) => {
      withdrawn.push({ requestId, reason });
    },
  };
  const respond = (response: InteractionResponse, index = 0) => {
    const announce = announces[index];
    if (!announce) throw new Error('nothing announced');
    announce.resolve({
      requestId: announce.request.requestId,
      response,
      resolvedBy: 'user',
      resolvedAt: '2030-01-01T00:00:00.000Z',
    });
  };
  return { transport, announces, withdrawn, respond };
}

const now = () => new Date('2030-01-01T00:00:00.000Z');

afterEach(() => {
  vi.useRealTimers();
});

describe('createInteractionBroker end to end with the executor', () => {
  it('[R3.2][R3.4] announces a question, maps the answers to modify and the model reads R4.1', async () => {
    const fake = fakeTransport();
    const broker = createInteractionBroker({ transport: fake.transport, now, newId: () => 'proto-1' });
    const call = executeToolCall({
      tool: askUserQuestionTool,
      input: questions,
      sessionId: 'sess',
      toolUseId: 'tu',
      broker,
      requestId: 'req-1',
    });
    await vi.waitFor(() => expect(fake.announces).toHaveLength(1));
    expect(expectItem(fake.announces, 0).request).toMatchObject({
      kind: 'question',
      requestId: 'req-1',
      protocolRequestId: 'proto-1',
      sessionId: 'sess',
      toolName: 'AskUserQuestion',
      toolUseId: 'tu',
      createdAt: '2030-01-01T00:00:00.000Z',
      input: { questions: [expect.objectContaining({ multiSelect: false }), expect.anything()] },
    });
    fake.respond({ action: 'accept', content: { answers: { 'Which DB?': 'SQLite', 'Cache?': 'Redis' } } });
    const result = await call;
    expect(result).toMatchObject({
      ok: true,
      content:
        'User has answered your questions: "Which DB?"="SQLite", "Cache?"="Redis". You can now continue with the user\'s answers in mind.',
    });
    // The send is stopped right after the answer went on its way.
    await vi.waitFor(() => expect(expectItem(fake.announces, 0).signal.aborted).toBe(true));
  });

  it('[R4.3][R6.4] an auto-resolution (accept with answers {}) gives the best-judgment text', async () => {
    const fake = fakeTransport();
    const call = executeToolCall({
      tool: askUserQuestionTool,
      input: questions,
      sessionId: 's',
      broker: createInteractionBroker({ transport: fake.transport }),
    });
    await vi.waitFor(() => expect(fake.announces).toHaveLength(1));
    fake.respond({ action: 'accept', content: { answers: {} } });
    const result = await call;
    expect(result.ok ? result.content : '').toContain(
      'Continue using your best judgment; do not treat this as a rejection',
    );
  });

  it('[R3.6][R3.7] a decline with a reason is the error the model sees', async () => {
    const fake = fakeTransport();
    const call = executeToolCall({
      tool: askUserQuestionTool,
      input: questions,
      sessionId: 's',
      broker: createInteractionBroker({ transport: fake.transport }),
    });
    await vi.waitFor(() => expect(fake.announces).toHaveLength(1));
    fake.respond({ action: 'decline', message: 'wrong project' });
    expect(await call).toEqual({ ok: false, error: 'AskUserQuestion was declined: wrong project', recoverable: true });
  });

  it('[R8.1][R8.3] re-announces under the same business id and stops once answered', async () => {
    vi.useFakeTimers();
    const fake = fakeTransport();
    let n = 0;
    const broker = createInteractionBroker({ transport: fake.transport, newId: () => `proto-${++n}` });
    const pending = broker.requestPermission({
      requestId: 'req-9',
      sessionId: 's',
      toolName: 'AskUserQuestion',
      input: questions,
    });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fake.announces.map((a) => [a.request.requestId, a.request.protocolRequestId])).toEqual([
      ['req-9', 'proto-1'],
      ['req-9', 'proto-2'],
      ['req-9', 'proto-3'],
    ]);
    fake.respond({ action: 'cancel' }, 2);
    await expect(pending).resolves.toEqual({ decision: 'deny', message: 'AskUserQuestion was cancelled' });
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.announces.every((a) => a.signal.aborted)).toBe(true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(fake.announces).toHaveLength(3);
  });

  // A malformed resolution never reaches the broker: the transport checks what arrives (host-connection.test.ts).
  it('[R8.1] keeps waiting when a resolution for another request arrives', async () => {
    vi.useFakeTimers();
    const fake = fakeTransport();
    const broker = createInteractionBroker({ transport: fake.transport });
    const pending = broker.requestPermission({
      requestId: 'mine',
      sessionId: 's',
      toolName: 'Bash',
      input: { command: 'ls' },
    });
    expectItem(fake.announces, 0).resolve({
      requestId: 'other',
      response: { action: 'accept' },
      resolvedBy: 'user',
      resolvedAt: '2030-01-01T00:00:00.000Z',
    });
    await vi.advanceTimersByTimeAsync(1_000);
    fake.respond({ action: 'accept' }, 1);
    await expect(pending).resolves.toEqual({ decision: 'allow' });
  });

  it('withdraws and rejects when the caller aborts', async () => {
    const fake = fakeTransport();
    const controller = new AbortController();
    const broker = createInteractionBroker({ transport: fake.transport });
    const pending = broker.requestPermission(
      { requestId: 'req-a', sessionId: 's', toolName: 'AskUserQuestion', input: questions },
      { signal: controller.signal },
    );
    await vi.waitFor(() => expect(fake.announces).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.withdrawn).toEqual([{ requestId: 'req-a', reason: 'The tool call was aborted' }]);
    expect(expectItem(fake.announces, 0).signal.aborted).toBe(true);
  });

  it('rejects input that does not fit the interaction kind, without announcing', async () => {
    const fake = fakeTransport();
    const broker = createInteractionBroker({ transport: fake.transport });
    await expect(
      broker.requestPermission({ requestId: 'r', sessionId: 's', toolName: 'ExitPlanMode', input: { plan: '' } }),
    ).rejects.toBeInstanceOf(InvalidInteractionRequestError);
    await expect(
      broker.requestPermission({ requestId: '', sessionId: 's', toolName: 'Bash', input: {} }),
    ).rejects.toBeInstanceOf(InvalidInteractionRequestError);
    expect(fake.announces).toHaveLength(0);
  });

  it('[R3.2] plan approval and permissions map accept/decline', async () => {
    const fake = fakeTransport();
    const broker = createInteractionBroker({ transport: fake.transport });
    const plan = broker.requestPermission({
      requestId: 'p',
      sessionId: 's',
      toolName: 'ExitPlanMode',
      input: { plan: '1. do it' },
    });
    await vi.waitFor(() => expect(fake.announces).toHaveLength(1));
    expect(expectItem(fake.announces, 0).request.kind).toBe('plan-approval');
    fake.respond({ action: 'decline', message: 'add tests' });
    await expect(plan).resolves.toEqual({ decision: 'deny', message: 'The user rejected the plan: add tests' });
  });

  it('[R7.1][R7.2] a nested subagent question reaches the root session with the asker as origin', async () => {
    const fake = fakeTransport();
    const root = createInteractionBroker({ transport: fake.transport });
    const child = childSubagentContext(
      { sessionId: 'root' },
      { agentId: 'a1', agentName: 'planner', sessionId: 'child' },
    );
    const grandchild = childSubagentContext(child, { agentId: 'a2', agentName: 'researcher', sessionId: 'grandchild' });
    const broker = withSubagentInteractionBroker(withSubagentInteractionBroker(root, child), grandchild);
    const call = executeToolCall({
      tool: askUserQuestionTool,
      input: questions,
      sessionId: 'grandchild',
      turnId: 't',
      broker,
    });
    await vi.waitFor(() => expect(fake.announces).toHaveLength(1));
    expect(expectItem(fake.announces, 0).request).toMatchObject({
      sessionId: 'root',
      origin: {
        kind: 'subagent',
        label: 'planner › researcher',
        depth: 2,
        sessionId: 'grandchild',
        parentSessionId: 'child',
        turnId: 't',
      },
    });
    fake.respond({ action: 'accept', content: { answers: { 'Cache?': 'None' } } });
    const result = await call;
    expect(result.ok ? result.content : '').toContain('skipped 1: "Cache?"="None"');
  });
});

describe('malformed arguments', () => {
  it('a transport whose withdraw throws does not hide the abort', async () => {
    const controller = new AbortController();
    const transport: InteractionTransport = {
      announce: () => new Promise(() => undefined),
      withdraw: () => {
        throw new Error('offline');
      },
    };
    const pending = createInteractionBroker({ transport }).requestPermission(
      { requestId: 'r', sessionId: 's', toolName: 'Bash', input: {} },
      { signal: controller.signal },
    );
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
