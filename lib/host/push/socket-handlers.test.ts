import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION, REMOTE_NAMESPACE, type InteractionRequest } from '../../contracts';
import { createHost, type Host } from '../create-host';
import { startPush } from './start-push';
import { type PushRuntime } from './create-push-service';
import { makeSubscription, startRecordingServer } from './test-helpers';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'askaway-push-socket-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const host: Host = await createHost({
    dataDir,
    port: 0,
    token: 'test-token',
    writeHostFile: false,
    staticDir: dataDir,
  });
  const push: PushRuntime = await startPush(host, { collapseWindowMs: 10 });
  cleanups.push(async () => {
    await host.close();
    await push.close();
  });
  const endpoint = await startRecordingServer();
  cleanups.push(() => endpoint.close());

  async function remote(deviceId: string): Promise<ClientSocket> {
    const socket = connect(`${host.url}${REMOTE_NAMESPACE}`, {
      auth: { token: 'test-token', protocolVersion: PROTOCOL_VERSION, device: { id: deviceId } },
      transports: ['websocket'],
      reconnection: false,
    });
    cleanups.push(() => void socket.disconnect());
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return socket;
  }

  function ask(requestId: string): void {
    const request: InteractionRequest = {
      kind: 'question',
      requestId,
      protocolRequestId: `p-${requestId}`,
      sessionId: 's',
      toolName: 'AskUserQuestion',
      createdAt: new Date().toISOString(),
      input: {
        questions: [
          {
            question: 'Ship it?',
            header: 'Release',
            multiSelect: false,
            options: [
              { label: 'Yes', description: 'Tag and publish' },
              { label: 'No', description: 'Wait' },
            ],
          },
        ],
      },
    };
    host.registry.announce(request, 'runtime');
  }

  return { host, push, endpoint, remote, ask };
}

describe('push messages on the /remote namespace', () => {
  it('[R14.1] hands out the VAPID public key and stores the subscription under the authenticated device', async () => {
    const { push, endpoint, remote } = await setup();
    const phone = await remote('phone-1');
    const key: unknown = await phone.emitWithAck('push:vapid-key');
    expect(key).toEqual({ ok: true, publicKey: push.service.vapidPublicKey });

    const { subscription } = makeSubscription(`${endpoint.url}/push/phone-1`);
    await expect(phone.emitWithAck('push:subscribe', { subscription })).resolves.toEqual({
      ok: true,
      status: { subscribed: true, ntfyTopicUrl: null },
    });
    await expect(phone.emitWithAck('push:status')).resolves.toMatchObject({ status: { subscribed: true } });
    await expect(phone.emitWithAck('push:unsubscribe', {})).resolves.toMatchObject({ status: { subscribed: false } });
  });

  it('[R14.1][R10.4] rejects invalid push messages with a clear error and changes nothing', async () => {
    const { push, remote } = await setup();
    const phone = await remote('phone-1');
    const bad: unknown = await phone.emitWithAck('push:subscribe', { subscription: { endpoint: 'ftp://x', keys: {} } });
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'invalid-message', message: expect.stringContaining('subscription') },
    });
    await expect(phone.emitWithAck('push:ntfy', { topicUrl: 'javascript:alert(1)' })).resolves.toMatchObject({
      ok: false,
    });
    expect(push.service.status('phone-1')).toEqual({ subscribed: false, ntfyTopicUrl: null });
  });

  it('[R14.4] presence from the socket keeps pushes away from a visible app, and disconnecting ends it', async () => {
    const { push, endpoint, remote, ask } = await setup();
    const phone = await remote('phone-1');
    await phone.emitWithAck('push:subscribe', {
      subscription: makeSubscription(`${endpoint.url}/push/phone-1`).subscription,
    });
    await expect(phone.emitWithAck('presence', { visible: true })).resolves.toEqual({ ok: true });
    expect(push.service.presence.isVisible('phone-1')).toBe(true);

    ask('while-visible');
    await push.service.idle();
    expect(push.service.throttleState('phone-1')).toBeUndefined();

    phone.disconnect();
    await vi.waitFor(() => expect(push.service.presence.isVisible('phone-1')).toBe(false));
    ask('after-leaving');
    await vi.waitFor(() => expect(endpoint.requests).toHaveLength(1));
  });

  it('[R14.1] push:test sends a test notification and reports the outcome', async () => {
    const { endpoint, remote } = await setup();
    const phone = await remote('phone-1');
    await expect(phone.emitWithAck('push:test', {})).resolves.toEqual({
      ok: true,
      webPush: 'not-subscribed',
      ntfy: 'not-configured',
    });
    await phone.emitWithAck('push:subscribe', {
      subscription: makeSubscription(`${endpoint.url}/push/phone-1`).subscription,
    });
    await phone.emitWithAck('push:ntfy', { topicUrl: `${endpoint.url}/topic` });
    await expect(phone.emitWithAck('push:test', {})).resolves.toEqual({ ok: true, webPush: 'sent', ntfy: 'sent' });
    expect(endpoint.requests.map((request) => request.path).sort()).toEqual(['/push/phone-1', '/topic']);
  });
});
