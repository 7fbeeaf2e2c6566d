import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHost, type Host } from '../create-host';
import { type Socket } from 'socket.io-client';
import { closeAllClients, connectRemote, connectRuntime, type RemoteClient } from '../test-support/clients';
import { pairDevice, postJson, readAdminToken } from '../test-support/devices';
import { questionRequest } from '../test-support/fixtures';
import { ACCEPTED_DEVICE_TOPICS, REFUSED_DEVICE_TOPICS } from '../test-support/refused-topics';
import { tempDir } from '../test-support/test-host';
import { createPushService } from './create-push-service';
import { sendNtfy } from './ntfy-sender';
import { publicOnlyPost } from './public-only-post';
import { startPush } from './start-push';
import { PUSH_DB_FILE, PushSubscriptionStore } from './subscription-store';
import { makeSubscription, NTFY_TEST_ORIGIN, routeToSink, startRecordingServer } from './test-helpers';
import { classifyAddress, deviceTopicRefusal, ownerTopicRefusal } from './topic-address';

const TOKEN = 'ntfy-topics-token';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  closeAllClients();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `push:ntfy` from a device's connection, as Settings sends it. */
function setTopic(socket: RemoteClient, topicUrl: string | null): Promise<unknown> {
  return (socket as unknown as Socket).emitWithAck('push:ntfy', { topicUrl });
}

/** A real host with push, whose `fetch` sends `*.test` names to a local recording sink. */
async function setup() {
  const dataDir = tempDir('askaway-ntfy-');
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const sink = await startRecordingServer();
  cleanups.push(() => sink.close());
  const host: Host = await createHost({ dataDir, port: 0, token: TOKEN, writeHostFile: false, staticDir: dataDir });
  const push = await startPush(host, { collapseWindowMs: 10, fetch: routeToSink(sink.url), allowPrivatePush: true });
  cleanups.push(async () => {
    await host.close();
    await push.close();
  });
  let asked = 0;
  const device = async (name: string) => {
    const paired = await pairDevice(host, name);
    const remote = await connectRemote(host.url, paired.credential);
    return { ...paired, socket: remote.socket };
  };
  /** A runtime of its own per question: a revocation closes the connection a revoked device's socket shared. */
  const ask = async (header: string, question: string) => {
    asked += 1;
    const runtime = await connectRuntime(host.url, TOKEN, `runtime-${asked}`);
    const request = questionRequest({
      input: {
        questions: [
          {
            question,
            header,
            multiSelect: false,
            options: [
              { label: 'Yes', description: 'Go' },
              { label: 'No', description: 'Wait' },
            ],
          },
        ],
      },
    });
    expect(await runtime.socket.emitWithAck('announce', request)).toMatchObject({ ok: true });
  };
  const posted = (topicPath: string) => sink.requests.filter((request) => request.path === topicPath);
  return { dataDir, host, push, sink, device, ask, posted };
}

describe('ntfy topics belong to whoever set them (R12.15)', () => {
  it('[R12.15][R16.5] a revoked device’s topic receives nothing more, and Settings no longer lists it', async () => {
    const { dataDir, host, push, sink, device, ask, posted } = await setup();
    const phone = await device('phone');
    const laptop = await device('laptop');
    await expect(setTopic(phone.socket, `${NTFY_TEST_ORIGIN}/exfil`)).resolves.toMatchObject({ ok: true });
    // The laptop's Web Push shows that the host did go through its targets for each question.
    await push.service.subscribe(laptop.deviceId, makeSubscription(`${sink.url}/push/laptop`).subscription);

    await ask('Secret plan', 'Ship the merger on Friday?');
    await vi.waitFor(() => expect(posted('/exfil')).toHaveLength(1));
    expect(posted('/exfil')[0]?.headers.title).toBe('Secret plan');

    const revoked = await postJson(
      `${host.url}/api/admin/devices/${phone.deviceId}/revoke`,
      {},
      { Authorization: `Bearer ${readAdminToken(dataDir)}` },
    );
    expect(revoked.status).toBe(200);
    expect((await push.service.status(laptop.deviceId)).ntfyTopics).toEqual([]);

    await ask('Secret plan', 'And the layoffs on Monday?');
    await vi.waitFor(() => expect(posted('/push/laptop')).toHaveLength(2));
    await push.service.idle();
    expect(posted('/exfil')).toHaveLength(1);
  });

  it('[R12.15][R16.5] a device that removes itself takes its topic with it; its Web Push switch does not', async () => {
    const { push, sink, device } = await setup();
    const phone = await device('phone');
    await setTopic(phone.socket, `${NTFY_TEST_ORIGIN}/mine`);
    await push.service.subscribe(phone.deviceId, makeSubscription(`${sink.url}/push/phone`).subscription);
    // Turning Web Push off is not removing the topic: each has its own control in Settings.
    expect(await (phone.socket as unknown as Socket).emitWithAck('push:unsubscribe', {})).toMatchObject({
      ok: true,
      status: { subscribed: false, ntfyTopicUrl: `${NTFY_TEST_ORIGIN}/mine` },
    });
    // Its connection closes before the ack can come back (as "Remove this device" in Settings knows).
    phone.socket.emit('devices:revoke', { deviceId: phone.deviceId }, () => undefined);
    await vi.waitFor(async () =>
      expect(await push.service.status(phone.deviceId)).toMatchObject({ ntfyTopicUrl: null, ntfyTopics: [] }),
    );
  });

  it('[R12.15] every refused address family from a device gets a clear error and changes nothing', async () => {
    const { push, device } = await setup();
    const phone = await device('phone');
    for (const { family, url } of REFUSED_DEVICE_TOPICS) {
      const ack: unknown = await setTopic(phone.socket, url);
      expect(ack, family).toMatchObject({
        ok: false,
        error: { code: 'invalid-message', message: expect.stringMatching(/^ntfy topic refused: /) },
      });
    }
    expect(await push.service.status(phone.deviceId)).toMatchObject({ ntfyTopicUrl: null, ntfyTopics: [] });
    const loopback: unknown = await setTopic(phone.socket, 'https://127.0.0.1:9/t');
    expect(JSON.stringify(loopback)).toContain('127.0.0.1 is a loopback address');
    expect(JSON.stringify(loopback)).toContain('askaway ntfy set');
  });

  it('[R12.15] a device sees its own topic in full and others’ only as where they go; it clears only its own', async () => {
    const { push, device } = await setup();
    const phone = await device('phone');
    const laptop = await device('laptop');
    await push.service.setHostNtfyTopic('http://192.168.1.20:8080/lan-topic');
    await setTopic(phone.socket, `${NTFY_TEST_ORIGIN}/phone-secret`);

    expect(await push.service.status(phone.deviceId)).toMatchObject({
      ntfyTopicUrl: `${NTFY_TEST_ORIGIN}/phone-secret`,
      ntfyTopics: [
        { deviceId: null, url: 'http://192.168.1.20:8080/…' },
        { deviceId: phone.deviceId, url: `${NTFY_TEST_ORIGIN}/phone-secret` },
      ],
    });
    expect(await push.service.status(laptop.deviceId)).toMatchObject({
      ntfyTopicUrl: null,
      ntfyTopics: [
        { deviceId: null, url: 'http://192.168.1.20:8080/…' },
        { deviceId: phone.deviceId, url: `${NTFY_TEST_ORIGIN}/…` },
      ],
    });

    await setTopic(laptop.socket, null);
    await setTopic(phone.socket, null);
    expect((await push.service.status(laptop.deviceId)).ntfyTopics).toEqual([
      { deviceId: null, url: 'http://192.168.1.20:8080/…' },
    ]);
  });

  it('[R12.15] a public name that resolves to this machine or the LAN at send time gets nothing', async () => {
    const sink = await startRecordingServer();
    cleanups.push(() => sink.close());
    const port = new URL(sink.url).port;
    for (const [address, kind] of [
      ['127.0.0.1', 'loopback'],
      ['10.0.0.5', 'private'],
      ['::ffff:192.168.0.1', 'private'],
      ['fd12::7', 'unique-local'],
    ] as const) {
      const post = publicOnlyPost(() => Promise.resolve([{ address, family: address.includes(':') ? 6 : 4 }]));
      const outcome = await sendNtfy(`https://rebinding.example.com:${port}/t`, { title: 'x', body: 'y' }, { post });
      expect(outcome).toMatchObject({
        status: 'failed',
        detail: expect.stringContaining(`resolves to a ${kind} address`),
      });
      // The class, never the address: the device reads this detail in its push test (R12.20).
      expect(JSON.stringify(outcome)).not.toContain(address);
    }
    // A name with a public and a private answer is refused too: the connection could pick either.
    const mixed = publicOnlyPost(() =>
      Promise.resolve([
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]),
    );
    await expect(
      sendNtfy(`https://rebinding.example.com:${port}/t`, { title: 'x', body: 'y' }, { post: mixed }),
    ).resolves.toMatchObject({ status: 'failed' });
    expect(sink.requests).toHaveLength(0);
  });

  it('[R12.15] the single topic of an older host: kept as the owner’s if a device could set it, else dropped with a log line', async () => {
    for (const [legacy, kept] of [
      ['https://ntfy.sh/old-topic', true],
      ['http://192.168.1.5/old-topic', false],
    ] as const) {
      const dataDir = tempDir('askaway-ntfy-legacy-');
      cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      const older = new PushSubscriptionStore(path.join(dataDir, PUSH_DB_FILE));
      older.putLegacyNtfyTopic(legacy);
      older.close();
      const logs: string[] = [];
      const push = await createPushService({ dataDir, publicUrl: () => undefined, log: (line) => logs.push(line) });
      const topics = (await push.service.status('any-device')).ntfyTopics;
      await push.close();
      expect(topics).toEqual(kept ? [{ deviceId: null, url: 'https://ntfy.sh/…' }] : []);
      expect(logs.join('\n')).toContain(kept ? "is now the host's own" : 'dropped the topic at http://192.168.1.5/…');
      expect(logs.join('\n')).not.toContain('old-topic');
    }
  });
});

describe('topic address classes (R12.15)', () => {
  it('[R12.15] refuses every non-public family from a device and accepts public https, any port', () => {
    for (const { family, url } of REFUSED_DEVICE_TOPICS) expect(deviceTopicRefusal(url), family).toBeDefined();
    for (const url of ACCEPTED_DEVICE_TOPICS) expect(deviceTopicRefusal(url), url).toBeUndefined();
  });

  it('[R12.15] the owner may name any http(s) address, a LAN ntfy included, but no credentials', () => {
    for (const url of ['http://192.168.1.20:8080/t', 'http://127.0.0.1:2586/t', 'https://ntfy.sh/t', 'http://ntfy/t'])
      expect(ownerTopicRefusal(url), url).toBeUndefined();
    for (const url of ['ftp://ntfy.sh/t', 'javascript:alert(1)', 'https://u:p@ntfy.sh/t', 'not a url'])
      expect(ownerTopicRefusal(url), url).toBeDefined();
  });

  it('[R12.15] classifies resolved addresses the way the send-time check needs', () => {
    expect(classifyAddress('93.184.215.14')).toBe('public');
    expect(classifyAddress('2606:4700::6810:84e5')).toBe('public');
    expect(classifyAddress('::ffff:10.0.0.1')).toBe('private');
    expect(classifyAddress('::ffff:a00:1')).toBe('private');
    expect(classifyAddress('fe80::1%eth0')).toBe('link-local');
    expect(classifyAddress('100.127.255.255')).toBe('carrier-grade NAT');
    expect(classifyAddress('100.128.0.1')).toBe('public');
    expect(classifyAddress('ntfy.sh')).toBeUndefined();
  });
});
