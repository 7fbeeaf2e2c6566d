import fs from 'node:fs';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import { type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../create-host';
import { connectPairedDevice } from '../test-support/clients';
import { pairDevice } from '../test-support/devices';
import { questionRequest } from '../test-support/fixtures';
import { REFUSED_DEVICE_TOPICS } from '../test-support/refused-topics';
import { tempDir } from '../test-support/test-host';
import { startPush, type StartPushOptions } from './start-push';
import { PUSH_DB_FILE, PushSubscriptionStore } from './subscription-store';
import { makeSubscription, NTFY_TEST_ORIGIN, routeToSink, startRecordingServer } from './test-helpers';

// Web Push goes only where push services live (R12.20): what a device names is held to https on a public
// address, at subscribe time and again at send time (the address checked is the one connected to), a redirect
// is an answer and never followed, and a push test tells the device a status, never another server's body.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The secrets of a service on this machine that a device must never read (the review's repro). */
const INTERNAL_SECRET = 'db_password=hunter2 token=ghp_internal0123456789';

type Prepare = (context: { dataDir: string; host: Host; sinkUrl: string }) => void | Promise<void>;

async function setup(options: StartPushOptions = {}, prepare?: Prepare) {
  const dataDir = tempDir('askaway-push-endpoints-');
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const sink = await startRecordingServer();
  cleanups.push(() => sink.close());
  /** A service on this machine that is no push service: an admin API, a database console. */
  const internal = await startRecordingServer();
  cleanups.push(() => internal.close());
  internal.answerFor.set('/admin', { status: 200, body: INTERNAL_SECRET });
  const logs: string[] = [];
  const host: Host = await createHost({
    dataDir,
    port: 0,
    token: 'push-endpoints',
    writeHostFile: false,
    staticDir: dataDir,
  });
  await prepare?.({ dataDir, host, sinkUrl: sink.url });
  const push = await startPush(host, {
    collapseWindowMs: 10,
    log: (line) => logs.push(line),
    // A device's ntfy topic on a `*.test` name reaches the sink; Web Push must not take this shortcut.
    fetch: routeToSink(sink.url),
    ...options,
  });
  cleanups.push(async () => {
    await host.close();
    await push.close();
  });
  const device = (name: string) => connectPairedDevice(host, name, cleanups);
  const ask = async () => {
    const ack = await host.registry.announce(questionRequest(), 'runtime');
    expect(ack).toMatchObject({ ok: true });
  };
  return { dataDir, host, push, sink, internal, logs, device, ask };
}

const subscribe = (socket: ClientSocket, endpoint: string): Promise<unknown> =>
  socket.emitWithAck('push:subscribe', { subscription: makeSubscription(endpoint).subscription });

describe('Web Push endpoints a device names (R12.20)', () => {
  it('[R12.20] a push service on this machine, the LAN, plain http or a numeric spelling is refused with a reason and changes nothing', async () => {
    const { push, device } = await setup();
    const phone = await device('phone');
    for (const { family, url } of REFUSED_DEVICE_TOPICS) {
      expect(await subscribe(phone, url), family).toMatchObject({
        ok: false,
        error: { code: 'invalid-message', message: expect.stringMatching(/^push subscription refused: /) },
      });
    }
    expect((await push.service.status(phone.deviceId)).subscribed).toBe(false);
    const loopback = JSON.stringify(await subscribe(phone, 'https://127.0.0.1:9/push'));
    expect(loopback).toContain('127.0.0.1 is a loopback address');
    expect(loopback).toContain('--allow-private-push');
    // The push services browsers use are taken.
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGx0',
    ])
      expect(await subscribe(phone, endpoint), endpoint).toMatchObject({ ok: true, status: { subscribed: true } });
  });

  it('[R12.20] a subscription to this machine stored earlier (by an older host) gets nothing at send time', async () => {
    let oldPhone = '';
    const { sink, logs, ask, push } = await setup({}, async ({ dataDir, host, sinkUrl }) => {
      // What an older host kept for a device still paired: an endpoint on loopback.
      const { deviceId } = await pairDevice(host, 'old-phone');
      oldPhone = deviceId;
      const store = new PushSubscriptionStore(path.join(dataDir, PUSH_DB_FILE));
      store.upsert(deviceId, makeSubscription(`${sinkUrl}/push/old`).subscription, new Date());
      store.close();
    });
    expect((await push.service.status(oldPhone)).subscribed).toBe(true);
    await ask();
    await expect.poll(() => logs.join('\n')).toContain('push endpoint refused: A push endpoint must be https://');
    await push.service.idle();
    expect(sink.requests).toHaveLength(0);
  });

  it('[R12.20] a public name that resolves to this machine at send time gets nothing; the address checked is the one connected to', async () => {
    const { sink, device } = await setup({
      resolveHost: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
    });
    const phone = await device('phone');
    const port = new URL(sink.url).port;
    // Looks like a push service on a public name, and is taken…
    expect(await subscribe(phone, `https://push.rebind.askaway.test:${port}/push/phone`)).toMatchObject({ ok: true });
    // …but at send time the name answers with this machine: nothing leaves.
    const ack = await phone.emitWithAck('push:test', {});
    expect(ack).toMatchObject({ ok: true, webPush: 'failed', detail: expect.stringContaining('a loopback address') });
    // The class, not the address: a device does not read this machine's DNS answers for names of its choice.
    expect(JSON.stringify(ack)).not.toContain('127.0.0.1');
    expect(sink.requests).toHaveLength(0);
  });
});

describe('what a push service answers (R12.20)', () => {
  it.each([301, 302, 303, 307, 308])(
    '[R12.20] a %i redirect from a push service is a failure and is never followed',
    async (status) => {
      const { sink, internal, device } = await setup({ allowPrivatePush: true });
      const phone = await device('phone');
      sink.answerFor.set('/push/phone', { status, headers: { Location: `${internal.url}/admin` } });
      expect(await subscribe(phone, `${sink.url}/push/phone`)).toMatchObject({ ok: true });
      const ack = await phone.emitWithAck('push:test', {});
      expect(ack).toMatchObject({ ok: true, webPush: 'failed', detail: expect.stringContaining(String(status)) });
      expect(sink.requests).toHaveLength(1);
      expect(internal.requests).toHaveLength(0);
      expect(JSON.stringify(ack)).not.toContain('hunter2');
    },
  );

  it('[R12.20] push:test tells the device the status its push service and ntfy answered, never their body', async () => {
    const { sink, device, logs } = await setup({ allowPrivatePush: true });
    const phone = await device('phone');
    sink.answerFor.set('/push/phone', { status: 500, body: INTERNAL_SECRET });
    sink.answerFor.set('/topic', { status: 403, body: INTERNAL_SECRET });
    await subscribe(phone, `${sink.url}/push/phone`);
    await phone.emitWithAck('push:ntfy', { topicUrl: `${NTFY_TEST_ORIGIN}/topic` });
    const ack = await phone.emitWithAck('push:test', {});
    expect(ack).toMatchObject({ ok: true, webPush: 'failed', ntfy: 'failed' });
    const detail = JSON.stringify(ack);
    expect(detail).toContain('500');
    expect(detail).toContain('403');
    expect(detail).not.toContain('hunter2');
    expect(detail).not.toContain('ghp_');
    // The owner's log may keep the start of it, to see what went wrong.
    expect(logs.join('\n')).toContain('500');
  });

  it('[R12.20] an endless answer from a push service is read no further than a log line needs', async () => {
    const { device, logs } = await setup({ allowPrivatePush: true });
    let closed = false;
    const endless = http.createServer((_req, res) => {
      res.writeHead(500);
      const more = () => {
        while (!closed && res.write('x'.repeat(16_384)));
        if (!closed) res.once('drain', more);
      };
      res.on('close', () => (closed = true));
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => endless.close(() => resolve())));
    cleanups.push(() => endless.closeAllConnections());
    const phone = await device('phone');
    await subscribe(phone, `http://127.0.0.1:${(endless.address() as AddressInfo).port}/push/phone`);
    // The sender's own timeout is 10 s, longer than this test may take: the answer must be cut, not waited out.
    await expect(phone.emitWithAck('push:test', {})).resolves.toMatchObject({
      webPush: 'failed',
      detail: 'push service answered 500',
    });
    await expect.poll(() => closed).toBe(true);
    expect(logs.join('\n').length).toBeLessThan(2_000);
  });

  it('[R12.20] with the owner’s --allow-private-push, a push service on this machine works', async () => {
    const { sink, device, ask } = await setup({ allowPrivatePush: true });
    const phone = await device('phone');
    expect(await subscribe(phone, `${sink.url}/push/phone`)).toMatchObject({ ok: true, status: { subscribed: true } });
    await expect(phone.emitWithAck('push:test', {})).resolves.toEqual({
      ok: true,
      webPush: 'sent',
      ntfy: 'not-configured',
    });
    await ask();
    await expect.poll(() => sink.requests.length).toBe(2);
  });
});
