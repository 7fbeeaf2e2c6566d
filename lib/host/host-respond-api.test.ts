import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceRespondReplySchema, RESPOND_API_PATH, type RespondCommand } from '../contracts';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairDevice, postJson } from './test-support/devices';
import { permissionRequest, questionRequest } from './test-support/fixtures';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

async function setup(options: Parameters<typeof startTestHost>[0] = {}) {
  const host = await startTestHost(options);
  const phone = await pairDevice(host, 'Pocket phone');
  const runtime = await connectRuntime(host.url, TEST_TOKEN);
  const send = (command: unknown, headers: Record<string, string> = {}) =>
    postJson(`${host.url}${RESPOND_API_PATH}`, command, { Authorization: `Bearer ${phone.credential}`, ...headers });
  return { host, phone, runtime, send };
}

const allow = (requestId: string, clientResponseId = 'notification-1'): RespondCommand => ({
  requestId,
  clientResponseId,
  response: { action: 'accept' },
});

describe('POST /api/respond (R14.10)', () => {
  it('[R14.10] a device answer over HTTP resolves the interaction exactly as the socket does, with the same ack', async () => {
    const { host, runtime, send } = await setup();
    const request = permissionRequest();
    await runtime.socket.emitWithAck('announce', request);
    const { status, json } = await send(allow(request.requestId));
    expect(status).toBe(200);
    const reply = DeviceRespondReplySchema.parse(json);
    expect(reply.ack).toMatchObject({
      ok: true,
      status: 'accepted',
      resolution: {
        response: { action: 'accept' },
        clientResponseId: 'notification-1',
        device: { label: 'Pocket phone' },
      },
    });
    await expect.poll(() => runtime.resolved.length).toBe(1);
    expect(runtime.resolved[0]?.resolution.response).toEqual({ action: 'accept' });
    // The same id again is the same winner (idempotent); another answer learns who won.
    expect(DeviceRespondReplySchema.parse((await send(allow(request.requestId))).json).ack).toMatchObject({
      ok: true,
      status: 'accepted',
    });
    const late = DeviceRespondReplySchema.parse(
      (await send({ ...allow(request.requestId, 'socket-2'), response: { action: 'decline' } })).json,
    );
    expect(late.ack).toMatchObject({
      ok: true,
      status: 'already-resolved',
      resolution: { clientResponseId: 'notification-1' },
    });
    expect(host.registry.projection.get(request.requestId)?.resolution?.response).toEqual({ action: 'accept' });
  });

  it('[R14.10] an answer the socket would refuse is refused alike and changes nothing', async () => {
    const { host, runtime, send } = await setup();
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    const remote = await connectRemote(host.url, (await pairDevice(host, 'Desk')).credential);
    const bad = {
      requestId: request.requestId,
      clientResponseId: 'bad',
      response: { action: 'accept', content: { answers: { 'Not a question?': 'x' } } },
    };
    const viaSocket = await remote.socket.emitWithAck('respond', bad);
    const viaHttp = DeviceRespondReplySchema.parse((await send(bad)).json).ack;
    expect(viaHttp).toEqual(viaSocket);
    expect(viaHttp).toMatchObject({ ok: false, error: { code: 'invalid-response' } });
    expect(host.registry.projection.get(request.requestId)?.status).toBe('pending');
  });

  it('[R14.10] a prompt answered in the terminal first says so', async () => {
    const { runtime, send } = await setup();
    const request = permissionRequest();
    await runtime.socket.emitWithAck('announce', request);
    await runtime.socket.emitWithAck('withdraw', { requestId: request.requestId, terminalAnswer: {} });
    const reply = DeviceRespondReplySchema.parse((await send(allow(request.requestId))).json);
    expect(reply).toMatchObject({ ack: { ok: false, error: { code: 'withdrawn' } }, answeredInTerminal: true });
  });

  it.each([
    ['no credential', { Authorization: '' }, 401, 'unauthorized'],
    ['the agent token', { Authorization: `Bearer ${TEST_TOKEN}` }, 401, 'unauthorized'],
    ['another site', { Origin: 'https://evil.example' }, 403, 'unauthorized'],
    ['a form post', { 'Content-Type': 'text/plain' }, 415, 'invalid-message'],
  ])('[R14.10] refuses %s and changes nothing', async (_name, headers, status, code) => {
    const { host, runtime, send } = await setup();
    const request = permissionRequest();
    await runtime.socket.emitWithAck('announce', request);
    const result = await send(allow(request.requestId), headers);
    expect(result.status).toBe(status);
    expect(DeviceRespondReplySchema.parse(result.json).ack).toMatchObject({ ok: false, error: { code } });
    expect(host.registry.projection.get(request.requestId)?.status).toBe('pending');
  });

  it('[R14.10][R12.4] a rebinding name gets 421 before the route: nothing is answered', async () => {
    const { host, phone, runtime } = await setup();
    const request = permissionRequest();
    await runtime.socket.emitWithAck('announce', request);
    const body = JSON.stringify(allow(request.requestId));
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${host.url}${RESPOND_API_PATH}`, {
        method: 'POST',
        headers: {
          Host: `evil.example:${host.port}`,
          Origin: `http://evil.example:${host.port}`,
          'Content-Type': 'application/json',
          Authorization: `Bearer ${phone.credential}`,
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(421);
    expect(host.registry.projection.get(request.requestId)?.status).toBe('pending');
  });

  it('[R14.10] a body of the wrong shape is refused; a flood from one device is slowed', async () => {
    const { send } = await setup({ rateLimits: { respond: { capacity: 3, refillPerSecond: 0.001 } } });
    const malformed = await send({ requestId: 'x', response: { action: 'accept' } });
    expect(malformed.status).toBe(400);
    expect(DeviceRespondReplySchema.parse(malformed.json).ack).toMatchObject({ error: { code: 'invalid-message' } });
    let nested: unknown = 1;
    for (let i = 0; i < 200; i += 1) nested = [nested];
    const deep = await send({ a: nested });
    expect(deep.status).toBe(400);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await send(allow('nothing'))).status);
    expect(statuses.at(-1)).toBe(429);
  });
});
