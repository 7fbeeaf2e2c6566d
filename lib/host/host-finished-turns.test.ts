import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { FINISHED_TURN_REPLY_MAX, type InteractionRequest } from '../contracts';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { permissionRequest } from './test-support/fixtures';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

const finishedTurn = (reply: 'prompt' | 'none' = 'prompt'): InteractionRequest => ({
  requestId: `turn:thread-1:${randomUUID()}`,
  protocolRequestId: `proto-${randomUUID()}`,
  sessionId: 'thread-1',
  toolName: 'finished-turn',
  createdAt: new Date().toISOString(),
  kind: 'finished-turn',
  agent: { kind: 'codex', name: 'Codex', version: '0.171.0' },
  origin: { kind: 'root', label: 'Codex', path: [], depth: 0, sessionId: 'thread-1', turnId: 't1' },
  input: { status: 'completed', message: 'Done: the cache is in.', reply },
});

async function setup() {
  const host = await startTestHost();
  const runtime = await connectRuntime(host.url, TEST_TOKEN);
  const phone = await connectRemote(host.url, (await pairDevice(host)).credential);
  const respond = (requestId: string, response: unknown) =>
    phone.socket.emitWithAck('respond', { requestId, clientResponseId: randomUUID(), response });
  return { host, runtime, phone, respond };
}

describe('finished turns on the host (R19.1, R19.4, R19.7)', () => {
  it('[R19.1] a finished turn is announced and kept as its own kind; a strict input refuses unknown fields', async () => {
    const { host, runtime } = await setup();
    const request = finishedTurn();
    expect(await runtime.socket.emitWithAck('announce', request)).toMatchObject({ ok: true });
    expect(host.registry.projection.get(request.requestId)).toMatchObject({
      kind: 'finished-turn',
      status: 'pending',
      input: request.input,
    });
    const bad = { ...finishedTurn(), input: { status: 'completed', reply: 'prompt', html: '<b>x</b>' } };
    expect(await runtime.socket.emitWithAck('announce', bad)).toMatchObject({ ok: false });
    const badStatus = { ...finishedTurn(), input: { status: 'paused', reply: 'prompt' } };
    expect(await runtime.socket.emitWithAck('announce', badStatus)).toMatchObject({ ok: false });
  });

  it('[R19.7] never auto-resolves, whatever the preference', async () => {
    const { host, runtime, phone } = await setup();
    await phone.socket.emitWithAck('preferences:update', {
      askUserQuestionAutoResolutionEnabled: true,
      askUserQuestionAutoResolutionTimeoutMs: 1_000,
    });
    const request = finishedTurn();
    await runtime.socket.emitWithAck('announce', request);
    expect(host.registry.projection.get(request.requestId)?.autoResolution).toEqual({ status: 'disabled' });
  });

  it('[R19.4] a reply is plain, non-blank text within the limit; Dismiss is a cancel; decline and other content are refused', async () => {
    const { runtime, respond } = await setup();
    const request = finishedTurn();
    await runtime.socket.emitWithAck('announce', request);
    const refused = async (response: unknown, message: RegExp) =>
      expect(await respond(request.requestId, response)).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(message) },
      });
    await refused({ action: 'accept' }, /needs content.reply/);
    await refused({ action: 'accept', content: { reply: '  \n ' } }, /must not be blank/);
    await refused({ action: 'accept', content: { reply: 'x'.repeat(FINISHED_TURN_REPLY_MAX + 1) } }, /./);
    await refused({ action: 'accept', content: { reply: 'go', answers: {} } }, /not answers/);
    await refused({ action: 'accept', content: { reply: 'go', choice: 'accept' } }, /not a choice/);
    await refused({ action: 'decline', message: 'no' }, /Dismiss a finished turn with cancel/);
    expect(
      await respond(request.requestId, { action: 'accept', content: { reply: 'Next: add tests.' } }),
    ).toMatchObject({ ok: true, status: 'accepted' });
    await expect.poll(() => runtime.resolved.length).toBe(1);
    expect(runtime.resolved[0]?.resolution.response).toEqual({
      action: 'accept',
      content: { reply: 'Next: add tests.' },
    });
  });

  it('[R19.4] a card without a reply box takes only a dismissal', async () => {
    const { runtime, respond } = await setup();
    const request = finishedTurn('none');
    await runtime.socket.emitWithAck('announce', request);
    expect(await respond(request.requestId, { action: 'accept', content: { reply: 'hi' } })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/editor owns its prompt/) },
    });
    expect(await respond(request.requestId, { action: 'cancel' })).toMatchObject({ ok: true });
  });

  it('[R19.4] other kinds refuse a reply', async () => {
    const { runtime, respond } = await setup();
    const request = permissionRequest();
    await runtime.socket.emitWithAck('announce', request);
    expect(await respond(request.requestId, { action: 'accept', content: { reply: 'hi' } })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/not answered with a reply/) },
    });
  });
});
