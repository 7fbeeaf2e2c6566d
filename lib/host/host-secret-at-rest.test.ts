import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET_ANSWER_MASK } from '../contracts';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { formatLifecycle } from './lifecycle-log';
import { pairDevice } from './test-support/devices';
import { SECRET_TOKEN_QUESTION, secretQuestionRequest } from './test-support/fixtures';
import { filesHolding } from './test-support/files-holding';
import { closeAllHosts, startTestHost, tempDir, TEST_TOKEN } from './test-support/test-host';

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

const SECRET = 'tok-9f27c1d0e5b3a6';
const NOTE = 'staging-note-4c81e0';
const TOKEN_QUESTION = SECRET_TOKEN_QUESTION;
const secretQuestion = secretQuestionRequest;

const answer = (secret: string) => ({
  action: 'accept' as const,
  content: {
    answers: { [TOKEN_QUESTION]: secret, 'Which region?': 'eu' },
    annotations: { [TOKEN_QUESTION]: { notes: NOTE } },
  },
});

describe('[R12.13] a secret answer is never written to the data dir', () => {
  it('[R12.13] after the answer, the ack and the host stopping, no byte of the data dir holds the secret or its note', async () => {
    const dataDir = tempDir();
    const lines: string[] = [];
    const host = await startTestHost({ dataDir, log: (line) => lines.push(line) });
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const phone = await connectRemote(host.url, (await pairDevice(host, 'phone')).credential);
    const request = secretQuestion();
    await runtime.socket.emitWithAck('announce', request);
    const ack = await phone.socket.emitWithAck('respond', {
      requestId: request.requestId,
      clientResponseId: randomUUID(),
      response: answer(SECRET),
    });
    expect(ack).toMatchObject({ ok: true, status: 'accepted' });
    await expect.poll(() => runtime.resolved.length).toBe(1);
    // The agent gets all of it, note included.
    expect(runtime.resolved[0]?.resolution.response).toEqual(answer(SECRET));
    expect(filesHolding(dataDir, [SECRET, NOTE])).toEqual([]);

    expect(await runtime.socket.emitWithAck('resolution:ack', { requestId: request.requestId })).toEqual({ ok: true });
    expect(host.registry.projection.get(request.requestId)?.deliveredAt).toBeDefined();
    expect(JSON.stringify(host.registry.projection.get(request.requestId))).toContain(SECRET_ANSWER_MASK);
    expect(filesHolding(dataDir, [SECRET, NOTE])).toEqual([]);

    await host.close();
    expect(fs.readdirSync(dataDir)).toContain('askaway.db');
    expect(filesHolding(dataDir, [SECRET, NOTE])).toEqual([]);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  it('[R12.13] what a terminal chose for a secret question is logged masked', async () => {
    const dataDir = tempDir();
    const host = await startTestHost({ dataDir });
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const request = secretQuestion();
    await runtime.socket.emitWithAck('announce', request);
    const withdrawn = await runtime.socket.emitWithAck('withdraw', {
      requestId: request.requestId,
      reason: 'answered in the terminal',
      terminalAnswer: { response: answer(SECRET) },
    });
    expect(withdrawn).toEqual({ ok: true });
    expect(host.registry.projection.get(request.requestId)?.terminalAnswer?.response).toMatchObject({
      content: { answers: { [TOKEN_QUESTION]: SECRET_ANSWER_MASK } },
    });
    await host.close();
    expect(filesHolding(dataDir, [SECRET, NOTE])).toEqual([]);
  });

  it('[R12.13] a host restarted before the ack asks again, and the agent gets the new answer, never the mask', async () => {
    const dataDir = tempDir();
    const first = await startTestHost({ dataDir });
    const before = await connectRuntime(first.url, TEST_TOKEN);
    const request = secretQuestion();
    await before.socket.emitWithAck('announce', request);
    await (
      await connectRemote(first.url, (await pairDevice(first, 'phone')).credential)
    ).socket.emitWithAck('respond', {
      requestId: request.requestId,
      clientResponseId: randomUUID(),
      response: answer(SECRET),
    });
    // The agent's process had not taken it yet (no ack) when the host went down.
    await expect.poll(() => before.resolved.length).toBe(1);
    closeAllClients();
    await first.close();
    expect(filesHolding(dataDir, [SECRET, NOTE])).toEqual([]);

    const lines: string[] = [];
    const host = await startTestHost({ dataDir, onLifecycle: (event) => lines.push(formatLifecycle(event) ?? '') });
    expect(host.registry.projection.get(request.requestId)?.status).toBe('pending');
    expect(lines).toEqual([
      expect.stringMatching(/^\? asked again, the host restarted before the agent had the secret/),
    ]);
    const phone = await connectRemote(host.url, (await pairDevice(host, 'phone')).credential);
    expect(phone.snapshots[0]?.pending.map((view) => view.requestId)).toEqual([request.requestId]);
    expect(phone.snapshots[0]?.history).toEqual([]);

    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const reannounced = await runtime.socket.emitWithAck('announce', request);
    expect(reannounced).toMatchObject({ ok: true, status: 'pending' });
    const again = 'tok-second-71be03';
    await phone.socket.emitWithAck('respond', {
      requestId: request.requestId,
      clientResponseId: randomUUID(),
      response: answer(again),
    });
    await expect.poll(() => runtime.resolved.length).toBe(1);
    expect(runtime.resolved[0]?.resolution.response).toEqual(answer(again));
    // A re-announce before the ack (the runtime reconnected) gets the whole answer from memory.
    const repeat = await runtime.socket.emitWithAck('announce', request);
    expect(repeat).toMatchObject({ ok: true, status: 'resolved', resolution: { response: answer(again) } });
    await runtime.socket.emitWithAck('resolution:ack', { requestId: request.requestId });
    await host.close();
    expect(filesHolding(dataDir, [SECRET, NOTE, again])).toEqual([]);
  });

  it('[R12.13] a runtime that re-announces by id after the restart waits for a new answer too', async () => {
    const dataDir = tempDir();
    const first = await startTestHost({ dataDir });
    const before = await connectRuntime(first.url, TEST_TOKEN);
    const request = secretQuestion();
    await before.socket.emitWithAck('announce', request);
    const phone = await connectRemote(first.url, (await pairDevice(first, 'phone')).credential);
    await phone.socket.emitWithAck('respond', {
      requestId: request.requestId,
      clientResponseId: randomUUID(),
      response: answer(SECRET),
    });
    closeAllClients();
    await first.close();

    const host = await startTestHost({ dataDir });
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const ack = await runtime.socket.emitWithAck('announce:batch', {
      entries: [{ requestId: request.requestId, protocolRequestId: request.protocolRequestId }],
    });
    expect(ack).toEqual({ ok: true, resolved: [], withdrawn: [], unknown: [] });
    expect(host.registry.projection.get(request.requestId)?.status).toBe('pending');
  });
});
