import { afterEach, describe, expect, it, vi } from 'vitest';
import { RUNTIME_NAMESPACE } from '../contracts';
import { closeAllHosts, startTestHost } from '../host/test-support/test-host';
import { askUserQuestionTool, executeToolCall } from '../core';
import { createRuntimeClient, type RuntimeClient } from './runtime-broker';
import { connectScriptedRemote, type ScriptedRemote } from './test-support/scripted-remote';
import { TWO_QUESTIONS } from './test-support/mcp-scenarios';
import { pairDevice } from '../host/test-support/devices';

let runtime: RuntimeClient | undefined;
let phone: ScriptedRemote | undefined;

afterEach(async () => {
  phone?.close();
  phone = undefined;
  await runtime?.close();
  runtime = undefined;
  await closeAllHosts();
});

describe('host connection against a real host', () => {
  it('[R8.1][R10.5] survives the host dropping the runtime: one pending item, one result, delivery acknowledged', async () => {
    const host = await startTestHost();
    runtime = createRuntimeClient({ url: host.url, token: host.token, label: 'test runtime' });
    await runtime.connection.ready();
    phone = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
    const call = executeToolCall({
      tool: askUserQuestionTool,
      input: TWO_QUESTIONS,
      sessionId: 'root',
      broker: runtime.broker,
    });
    const question = await phone.next();

    const live = runtime.connection;
    const reconnected = new Promise<void>((resolve) => live.onConnectionChange((up) => up && resolve()));
    host.io.of(RUNTIME_NAMESPACE).disconnectSockets(true);
    await reconnected;
    // Re-announcing after the reconnect must not create a second pending item.
    await vi.waitFor(() => expect(host.registry.snapshot().pending).toHaveLength(1));
    expect(phone.pending()).toHaveLength(1);

    const ack = await phone.respond(question.requestId, {
      action: 'accept',
      content: { answers: { 'Which database?': 'SQLite' } },
    });
    expect(ack).toMatchObject({ ok: true, status: 'accepted' });
    await expect(call).resolves.toMatchObject({
      ok: true,
      content: expect.stringContaining('"Which database?"="SQLite"'),
    });
    await vi.waitFor(async () => {
      const delivered = (await host.registry.readSince(0, 1_000)).filter(
        (event) => event.type === 'interaction.delivered',
      );
      expect(delivered.map((event) => event.requestId)).toEqual([question.requestId]);
    });
  });

  it('[R12.3] a valid request too large for one host message fails at once and leaves the connection alone', async () => {
    const host = await startTestHost();
    runtime = createRuntimeClient({ url: host.url, token: host.token });
    await runtime.connection.ready();
    phone = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
    const drops: boolean[] = [];
    runtime.connection.onConnectionChange((up) => drops.push(up));
    const normal = executeToolCall({
      tool: askUserQuestionTool,
      input: TWO_QUESTIONS,
      sessionId: 'root',
      broker: runtime.broker,
    });
    const question = await phone.next();

    // Every field within its own limit (4 questions, 4 options, 20,000-character previews), 320 kB in all.
    const huge = {
      questions: [1, 2, 3, 4].map((n) => ({
        question: `Which layout ${n}?`,
        header: `Layout ${n}`,
        multiSelect: false,
        options: ['A', 'B', 'C', 'D'].map((label) => ({
          label,
          description: `Layout ${label}`,
          preview: label.repeat(20_000),
        })),
      })),
    };
    const tooLarge = await executeToolCall({
      tool: askUserQuestionTool,
      input: huge,
      sessionId: 'root',
      broker: runtime.broker,
    });
    expect(tooLarge).toMatchObject({ ok: false, error: expect.stringContaining('too large') });

    const ack = await phone.respond(question.requestId, {
      action: 'accept',
      content: { answers: { 'Which database?': 'SQLite' } },
    });
    expect(ack).toMatchObject({ ok: true, status: 'accepted' });
    await expect(normal).resolves.toMatchObject({ ok: true });
    expect(drops).toEqual([]);
  });

  it('[R12.1] a wrong token is refused with a clear error and the call fails instead of hanging', async () => {
    const host = await startTestHost();
    runtime = createRuntimeClient({ url: host.url, token: 'not-the-token' });
    await expect(runtime.connection.ready()).rejects.toMatchObject({ code: 'unauthorized' });
    const result = await executeToolCall({
      tool: askUserQuestionTool,
      input: TWO_QUESTIONS,
      sessionId: 'root',
      broker: runtime.broker,
    });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('refused the token') });
  });
});
