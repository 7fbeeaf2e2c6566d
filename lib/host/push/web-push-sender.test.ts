import { afterEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { PushPayloadSchema, type PushShowPayload } from '../../contracts';
import { decryptWebPush, makeSubscription, startRecordingServer, verifyVapid } from './test-helpers';
import { createWebPushSender } from './web-push-sender';
import { expectItem } from '../../core/test-support/expect-item';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const payload: PushShowPayload = {
  type: 'show',
  tag: 'req-1',
  title: 'Database',
  body: 'Which database? 数据库用哪个？',
  timestamp: '2026-01-01T10:00:00.000Z',
  data: { kind: 'interaction', url: '/card?id=req-1', requestId: 'req-1' },
};

async function setup() {
  const server = await startRecordingServer();
  servers.push(server);
  const vapid = webpush.generateVAPIDKeys();
  const keys = makeSubscription(`${server.url}/push/abc`);
  // The recording push service is on loopback: the owner's to allow (R12.20).
  const send = createWebPushSender({ vapid, subject: 'mailto:ops@example.com', allowPrivatePush: true });
  const stored = {
    deviceId: 'phone',
    endpoint: keys.subscription.endpoint,
    keys: keys.subscription.keys,
    updatedAt: '',
  };
  return { server, vapid, keys, send, stored };
}

describe('web push sender', () => {
  it('[R14.1] encrypts the payload as aes128gcm for the subscription and signs it with VAPID, over plain http', async () => {
    const { server, vapid, keys, send, stored } = await setup();
    await expect(send(stored, payload)).resolves.toEqual({ status: 'sent' });

    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-encoding']).toBe('aes128gcm');
    const claims = verifyVapid(request?.headers.authorization, vapid.publicKey, keys.subscription.endpoint);
    expect(claims.sub).toBe('mailto:ops@example.com');
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    // The body is not readable without the browser's private key…
    expect(request?.body.toString('utf8')).not.toContain('Database');
    // …and with it, it is exactly the payload.
    const decrypted = PushPayloadSchema.parse(JSON.parse(decryptWebPush(request?.body ?? Buffer.alloc(0), keys)));
    expect(decrypted).toEqual(payload);
  });

  it('[R14.1] the payload cannot be read with another browser key', async () => {
    const { server, keys, send, stored } = await setup();
    await send(stored, payload);
    const stranger = { ...makeSubscription(keys.subscription.endpoint), auth: keys.auth };
    const body = expectItem(server.requests, 0).body;
    expect(() => decryptWebPush(body, stranger)).toThrow();
  });

  it.each([404, 410])('[R14.5] reports %i as an expired subscription', async (status) => {
    const { server, send, stored } = await setup();
    server.statusFor.set('/push/abc', status);
    await expect(send(stored, payload)).resolves.toEqual({ status: 'expired', httpStatus: status });
  });

  it('[R14.5] reports other statuses and unreachable services as failures', async () => {
    const { server, send, stored } = await setup();
    server.statusFor.set('/push/abc', 429);
    await expect(send(stored, payload)).resolves.toMatchObject({
      status: 'failed',
      detail: expect.stringContaining('429'),
    });
    await server.close();
    await expect(send(stored, payload)).resolves.toMatchObject({
      status: 'failed',
      detail: expect.stringContaining('unreachable'),
    });
  });

  it('[R14.3] a close shares the Topic of the notification it closes, so a queued show is replaced', async () => {
    const { server, send, stored } = await setup();
    await send(stored, payload);
    await send(stored, { type: 'close', tags: ['req-1'] });
    const [show, close] = server.requests;
    expect(show?.headers.topic).toBeDefined();
    expect(close?.headers.topic).toBe(show?.headers.topic);
  });
});
