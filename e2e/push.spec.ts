import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type CDPSession, chromium, expect, type Page, test } from '@playwright/test';
import { type Socket } from 'socket.io-client';
import { notificationTargetUrl } from '../lib/client/sw/push';
import { pairOverHttp } from '../lib/host/test-support/devices';
import {
  decryptWebPush,
  makeSubscription,
  startRecordingServer,
  type BrowserKeys,
} from '../lib/host/push/test-helpers';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { connectRemote, startPushHost, type PushHost } from './support/notification-press';
import { ScriptedRuntime } from './support/scripted-runtime';

// Web Push in real Chromium: a real host with push attached sends encrypted pushes to a local
// recording endpoint standing in for the push service (CI reaches none, so pushManager.subscribe
// fails there); the test decrypts each one as the browser would and hands it to the app's real
// service worker through the DevTools protocol.

const ROOT = path.resolve(import.meta.dirname, '..');
/** The static export under test; its sw.js must include registerPushHandlers(). */
const OUT_DIR = process.env.ASKAWAY_E2E_OUT_DIR ?? path.join(ROOT, 'out');
const TOKEN = 'push-e2e-token';

/** Everything the host process printed is checked for secrets at teardown (R16.6). */
const secrets = new Set<string>([TOKEN]);

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  data: unknown;
  actions: number;
}

let dir: string;
let hostUrl: string;
let host: PushHost | undefined;
let runtime: ScriptedRuntime;
const remotes: Socket[] = [];
let endpoint: Awaited<ReturnType<typeof startRecordingServer>>;
let browser: Browser;
let page: Page;
let cdp: CDPSession;
let registrationId: string;
let device: BrowserKeys;

test.beforeEach(async ({}, testInfo) => {
  test.skip(
    testInfo.project.name !== testInfo.config.projects[0]?.name,
    'the worker is the same in every project: run once',
  );
  const worker = await readFile(path.join(OUT_DIR, 'sw.js'), 'utf8');
  expect(
    worker,
    `${OUT_DIR}/sw.js has no push handlers: add registerPushHandlers() to lib/client/sw/service-worker.ts and rebuild`,
  ).toContain('notificationclick');
  dir = await mkdtemp(path.join(os.tmpdir(), 'askaway-push-e2e-'));
  // The collapse window is shorter than the product's 1.5 s to keep the tests quick, and long enough that five
  // questions announced at once land in it on a loaded machine.
  host = await startPushHost(dir, TOKEN, { collapseWindowMs: 750 });
  hostUrl = host.url;
  runtime = new ScriptedRuntime(hostUrl, TOKEN);
  endpoint = await startRecordingServer();
  device = makeSubscription(`${endpoint.url}/push/phone`);
  // The phone subscribed earlier and is now in a pocket: connected for this call only.
  const phone = await remote('phone');
  await expect(phone.emitWithAck('push:subscribe', { subscription: device.subscription })).resolves.toMatchObject({
    ok: true,
  });
  phone.disconnect();

  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  await context.grantPermissions(['notifications'], { origin: hostUrl });
  page = await context.newPage();
  cdp = await context.newCDPSession(page);
  const registered = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find(
        (registration) => registration.scopeURL.startsWith(hostUrl) && !registration.isDeleted,
      );
      if (mine) resolve(mine.registrationId);
    });
  });
  // Before navigating, or the registration event is missed.
  await cdp.send('ServiceWorker.enable');
  await page.goto(`${hostUrl}/`);
  registrationId = await registered;
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none'), { timeout: 15_000 })
    .toBe('activated');
});

test.afterEach(async () => {
  await browser?.close();
  runtime?.close();
  for (const socket of remotes.splice(0)) socket.disconnect();
  await host?.stop();
  await endpoint?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  expect(
    [...secrets].filter((secret) => host?.output().includes(secret)),
    'secrets in the host output',
  ).toEqual([]);
});

/** A device paired over HTTP (as the app does) and connected; its push subscription is its own. */
async function remote(name: string): Promise<Socket> {
  const { credential } = await pairOverHttp(hostUrl, path.join(dir, 'data'), name);
  secrets.add(credential);
  const socket = await connectRemote(hostUrl, credential);
  remotes.push(socket);
  return socket;
}

function ask(header: string, question: string): Promise<string> {
  return runtime.ask(
    {
      questions: [
        {
          question,
          header,
          multiSelect: false,
          options: [
            { label: 'Postgres', description: 'Relational' },
            { label: 'SQLite', description: 'One file' },
          ],
        },
      ],
    },
    { origin: { kind: 'subagent', label: 'db-scout', path: ['db-scout'], depth: 1 } },
  );
}

/** Waits for the host's next push to the device, decrypts it and delivers it to the worker. */
async function relayPush(index: number): Promise<string> {
  await expect
    .poll(() => endpoint.requests.length, { message: `push #${index + 1} reaches the push service` })
    .toBeGreaterThan(index);
  const body = endpoint.requests[index]?.body ?? Buffer.alloc(0);
  const text = decryptWebPush(body, device);
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: hostUrl, registrationId, data: text });
  return text;
}

function shownNotifications(): Promise<ShownNotification[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const shown = await registration.getNotifications();
    return shown.map((notification) => ({
      title: notification.title,
      body: notification.body,
      tag: notification.tag,
      data: notification.data as unknown,
      actions: ((notification as Notification & { actions?: unknown[] }).actions ?? []).length,
    }));
  });
}

test('[R14.2][R14.3] a new question shows its notification in the real worker; answering it elsewhere closes it', async () => {
  const requestId = await ask('Database', 'Which database should the cache use?');
  await relayPush(0);
  await expect.poll(shownNotifications).toHaveLength(1);
  const [notification] = await shownNotifications();
  expect(notification).toMatchObject({
    title: 'Database',
    tag: requestId,
    actions: 0,
    data: { kind: 'interaction', url: `/card?id=${requestId}`, requestId },
  });
  expect(notification?.body).toContain('Which database should the cache use?');
  expect(notification?.body).toContain('Asked by subagent db-scout');
  expect(notificationTargetUrl(notification?.data, hostUrl)).toBe(`${hostUrl}/card?id=${requestId}`);

  const desk = await remote('desk');
  const answered: unknown = await desk.emitWithAck('respond', {
    requestId,
    clientResponseId: 'desk-answer',
    response: { action: 'accept', content: { answers: {} } },
  });
  expect(answered).toMatchObject({ ok: true, status: 'accepted' });
  expect(JSON.parse(await relayPush(1))).toEqual({ type: 'close', tags: [requestId] });
  await expect.poll(shownNotifications).toEqual([]);
});

test('[R14.4] a burst of questions arrives as one summary notification that opens the inbox', async () => {
  await Promise.all([0, 1, 2, 3, 4].map((index) => ask(`Q${index}`, `Question number ${index}?`)));
  await relayPush(0);
  await expect.poll(shownNotifications, { timeout: 15_000 }).toHaveLength(1);
  const [summary] = await shownNotifications();
  expect(summary).toMatchObject({
    title: '5 questions waiting',
    tag: 'askaway-summary',
    data: { kind: 'summary', url: '/' },
  });
  expect(notificationTargetUrl(summary?.data, hostUrl)).toBe(`${hostUrl}/`);
  // Still one push: the five became one.
  expect(endpoint.requests).toHaveLength(1);
});

test('[R14.5] a push the worker cannot read still shows a notification, leading to the inbox', async () => {
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: hostUrl, registrationId, data: 'not json' });
  await expect.poll(shownNotifications).toHaveLength(1);
  const [generic] = await shownNotifications();
  expect(notificationTargetUrl(generic?.data, hostUrl)).toBe(`${hostUrl}/`);
});
