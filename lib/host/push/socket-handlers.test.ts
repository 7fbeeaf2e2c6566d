import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type InteractionRequest } from '../../contracts';
import { createHost, type Host } from '../create-host';
import { connectPairedDevice } from '../test-support/clients';
import { pairDevice } from '../test-support/devices';
import { startPush } from './start-push';
import { type PushRuntime } from './create-push-service';
import { makeSubscription, NTFY_TEST_ORIGIN, routeToSink, startRecordingServer } from './test-helpers';

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
  const endpoint = await startRecordingServer();
  cleanups.push(() => endpoint.close());
  const push: PushRuntime = await startPush(host, {
    collapseWindowMs: 10,
    fetch: routeToSink(endpoint.url),
    // The suite's push service is on loopback: the owner's to allow (R12.20).
    allowPrivatePush: true,
  });
  cleanups.push(async () => {
    await host.close();
    await push.close();
  });

  /** A paired device's connection; its id comes from its credential, as the host sees it. */
  const remote = (name: string) => connectPairedDevice(host, name, cleanups);

  async function ask(requestId: string): Promise<void> {
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
    await host.registry.announce(request, 'runtime');
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
      status: { subscribed: true, ntfyTopicUrl: null, ntfyTopics: [] },
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
    expect(await push.service.status(phone.deviceId)).toEqual({
      subscribed: false,
      ntfyTopicUrl: null,
      ntfyTopics: [],
    });
  });

  it('[R14.4] presence from the socket keeps pushes away from a visible app, and disconnecting ends it', async () => {
    const { push, endpoint, remote, ask } = await setup();
    const phone = await remote('phone-1');
    await phone.emitWithAck('push:subscribe', {
      subscription: makeSubscription(`${endpoint.url}/push/phone-1`).subscription,
    });
    await expect(phone.emitWithAck('presence', { visible: true })).resolves.toEqual({ ok: true });
    expect(push.service.presence.isVisible(phone.deviceId)).toBe(true);

    await ask('while-visible');
    await push.service.idle();
    expect(push.service.throttleState(phone.deviceId)).toBeUndefined();

    phone.disconnect();
    await vi.waitFor(() => expect(push.service.presence.isVisible(phone.deviceId)).toBe(false));
    await ask('after-leaving');
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
    await phone.emitWithAck('push:ntfy', { topicUrl: `${NTFY_TEST_ORIGIN}/topic` });
    await expect(phone.emitWithAck('push:test', {})).resolves.toEqual({ ok: true, webPush: 'sent', ntfy: 'sent' });
    expect(endpoint.requests.map((request) => request.path).sort()).toEqual(['/push/phone-1', '/topic']);
  });

  it('[R16.5] revoking a device deletes its push subscription at once; the others keep theirs', async () => {
    const { host, push, endpoint, remote } = await setup();
    const phone = await remote('phone');
    const laptop = await remote('laptop');
    for (const device of [phone, laptop])
      await device.emitWithAck('push:subscribe', {
        subscription: makeSubscription(`${endpoint.url}/push/${device.deviceId}`).subscription,
      });
    expect(await host.devices.revoke(phone.deviceId)).toMatchObject({ ok: true });
    expect((await push.service.status(phone.deviceId)).subscribed).toBe(false);
    expect((await push.service.status(laptop.deviceId)).subscribed).toBe(true);
  });
});

describe('push subscriptions across an upgrade', () => {
  it('[R16.7] at start, subscriptions of devices the host no longer lets in are removed', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'askaway-push-upgrade-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const open = () => createHost({ dataDir, port: 0, token: 't', writeHostFile: false, staticDir: dataDir });
    const first = await open();
    const kept = await pairDevice(first, 'kept');
    const revoked = await pairDevice(first, 'revoked');
    await first.devices.revoke(revoked.deviceId);
    const push = await startPush(first);
    // As an older host stored them: under ids the app made up itself, and one of a device since revoked.
    for (const deviceId of ['legacy-browser-id', revoked.deviceId, kept.deviceId])
      await push.service.subscribe(deviceId, makeSubscription(`https://push.example/${deviceId}`).subscription);
    await first.close();
    await push.close();

    const second = await open();
    const restarted = await startPush(second);
    cleanups.push(async () => {
      await second.close();
      await restarted.close();
    });
    expect((await restarted.service.status(kept.deviceId)).subscribed).toBe(true);
    expect((await restarted.service.status('legacy-browser-id')).subscribed).toBe(false);
    expect((await restarted.service.status(revoked.deviceId)).subscribed).toBe(false);
  });
});
