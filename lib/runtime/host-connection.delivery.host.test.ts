import { type Event as SocketEvent } from 'socket.io';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RUNTIME_NAMESPACE } from '../contracts';
import { closeAllHosts, startTestHost, tempDir } from '../host/test-support/test-host';
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

const ANSWER = { action: 'accept' as const, content: { answers: { 'Which database?': 'SQLite' } } };

describe('resolution acknowledgement against a real host (R10.5)', () => {
  it('[R10.5] an ack lost with the connection is re-sent after the reconnect and logged as delivered exactly once', async () => {
    const host = await startTestHost();
    // The host drops the runtime's first resolution:ack unread and closes the connection with it.
    let dropped = 0;
    host.io.of(RUNTIME_NAMESPACE).on('connection', (socket) => {
      socket.use((packet: SocketEvent, next) => {
        if (packet[0] === 'resolution:ack' && dropped === 0) {
          dropped += 1;
          socket.disconnect(true);
          return;
        }
        next();
      });
    });
    runtime = createRuntimeClient({ url: host.url, token: host.token });
    await runtime.connection.ready();
    phone = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
    const call = executeToolCall({
      tool: askUserQuestionTool,
      input: TWO_QUESTIONS,
      sessionId: 'root',
      broker: runtime.broker,
    });
    const question = await phone.next();
    expect(await phone.respond(question.requestId, ANSWER)).toMatchObject({ ok: true, status: 'accepted' });
    await expect(call).resolves.toMatchObject({ ok: true });

    const delivered = async () =>
      (await host.registry.readSince(0, 1_000)).filter((event) => event.type === 'interaction.delivered');
    await vi.waitFor(
      async () => expect((await delivered()).map((event) => event.requestId)).toEqual([question.requestId]),
      {
        timeout: 5_000,
      },
    );
    expect(dropped).toBe(1);
    // Nothing is left to confirm, so no later reconnect sends it again.
    const live = runtime.connection;
    const reconnected = new Promise<void>((resolve) => live.onConnectionChange((up) => up && resolve()));
    host.io.of(RUNTIME_NAMESPACE).disconnectSockets(true);
    await reconnected;
    expect(await delivered()).toHaveLength(1);
    expect(host.registry.projection.get(question.requestId)?.deliveredAt).toBeDefined();
  });

  it('[R10.5] an ack the host never got because it died is confirmed by the restarted host', async () => {
    const dataDir = tempDir();
    const first = await startTestHost({ dataDir });
    const port = Number(new URL(first.url).port);
    let resolvedSeen = false;
    // Stand-in for a SIGKILL between the resolution and its ack: the ack is swallowed, then the host goes.
    first.io.of(RUNTIME_NAMESPACE).on('connection', (socket) => {
      socket.use((packet: SocketEvent, next) => {
        if (packet[0] === 'resolution:ack') {
          resolvedSeen = true;
          return;
        }
        next();
      });
    });
    runtime = createRuntimeClient({ url: first.url, token: first.token });
    await runtime.connection.ready();
    phone = await connectScriptedRemote(first.url, (await pairDevice(first)).credential);
    const call = executeToolCall({
      tool: askUserQuestionTool,
      input: TWO_QUESTIONS,
      sessionId: 'root',
      broker: runtime.broker,
    });
    const question = await phone.next();
    await phone.respond(question.requestId, ANSWER);
    await expect(call).resolves.toMatchObject({ ok: true });
    await vi.waitFor(() => expect(resolvedSeen).toBe(true));
    phone.close();
    phone = undefined;
    await first.close();

    const second = await startTestHost({ dataDir, port });
    const delivered = async () =>
      (await second.registry.readSince(0, 1_000)).filter((event) => event.type === 'interaction.delivered');
    await vi.waitFor(
      async () => expect((await delivered()).map((event) => event.requestId)).toEqual([question.requestId]),
      {
        timeout: 8_000,
      },
    );
  });
});
