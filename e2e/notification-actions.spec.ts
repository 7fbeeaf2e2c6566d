import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, type CDPSession, chromium, expect, type Page, test } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import { REMOTE_NAMESPACE, REMOTE_PROTOCOL_VERSION, type PairResponse } from '../lib/contracts';
import { pairOverHttp } from '../lib/host/test-support/devices';
import {
  decryptWebPush,
  makeSubscription,
  startRecordingServer,
  type BrowserKeys,
} from '../lib/host/push/test-helpers';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { startNotificationBus, type DesktopNotification, type NotificationBus } from './support/notification-bus';
import { ScriptedRuntime } from './support/scripted-runtime';

// A notification's answer buttons, pressed for real (R14.8–R14.11). Chromium on Linux shows web notifications
// through the desktop's notification service on D-Bus: a private session bus and a fake service of the suite's
// own record what it shows and press its buttons (ActionInvoked), which the app's real service worker gets as a
// trusted notificationclick with its action. Pushes reach the worker through the DevTools protocol, as in
// ./push.spec.ts; the answer goes from the worker to the real host, and the scripted agent gets it.

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT_DIR = process.env.ASKAWAY_E2E_OUT_DIR ?? path.join(ROOT, 'out');
const TOKEN = 'notification-actions-e2e-token';

const HOST_SCRIPT = `
const { createHost } = await import(${JSON.stringify(path.join(ROOT, 'lib/host/create-host.ts'))});
const { startPush } = await import(${JSON.stringify(path.join(ROOT, 'lib/host/push/start-push.ts'))});
const host = await createHost({ dataDir: process.env.DATA_DIR, port: 0, token: process.env.TOKEN, staticDir: process.env.STATIC_DIR, writeHostFile: false });
const push = await startPush(host, { collapseWindowMs: 200, rateLimitMax: 100 });
console.log('ACTIONS_E2E_HOST ' + host.url);
process.on('SIGTERM', async () => { await host.close(); await push.close(); process.exit(0); });
`;

let dir: string;
let hostUrl: string;
let hostProcess: ChildProcess | undefined;
let hostOutput = '';
let runtime: ScriptedRuntime;
let endpoint: Awaited<ReturnType<typeof startRecordingServer>>;
let bus: NotificationBus | undefined;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;
let registrationId: string;
let keys: BrowserKeys;
let phone: PairResponse;
let relayed = 0;
const sockets: Socket[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({}, testInfo) => {
  test.skip(
    testInfo.project.name !== testInfo.config.projects[0]?.name,
    'the worker and the desktop are the same in every project: run once',
  );
  expect(await readFile(path.join(OUT_DIR, 'sw.js'), 'utf8'), 'rebuild: sw.js has no answer buttons').toContain(
    '/api/respond',
  );
  dir = await mkdtemp(path.join(os.tmpdir(), 'askaway-actions-e2e-'));
  await cp(OUT_DIR, path.join(dir, 'static'), { recursive: true });
  bus = await startNotificationBus(dir);
  hostUrl = await startHost(path.join(dir, 'data'), path.join(dir, 'static'));
  runtime = new ScriptedRuntime(hostUrl, TOKEN);
  endpoint = await startRecordingServer();
  keys = makeSubscription(`${endpoint.url}/push/phone`);
  phone = await pairOverHttp(hostUrl, path.join(dir, 'data'), 'Pocket phone');
  // The phone subscribed earlier (pushManager.subscribe reaches no push service here): its own subscription.
  const subscriber = await remote(phone.credential);
  await expect(subscriber.emitWithAck('push:subscribe', { subscription: keys.subscription })).resolves.toMatchObject({
    ok: true,
  });
  subscriber.disconnect();

  // A persistent context: only there does the desktop's click reach the service worker.
  context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    serviceWorkers: 'allow',
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: bus.address },
  });
  await context.grantPermissions(['notifications'], { origin: hostUrl });
  page = context.pages()[0] ?? (await context.newPage());
  cdp = await context.newCDPSession(page);
  const registered = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((entry) => entry.scopeURL.startsWith(hostUrl) && !entry.isDeleted);
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  // The app, paired as this phone, keeps the device's credential where its worker reads it (R14.10).
  await page.goto(`${hostUrl}/`);
  await page.evaluate((pairing) => localStorage.setItem('askaway.pairing', JSON.stringify(pairing)), {
    hostUrl: '',
    hostName: 'e2e',
    deviceId: phone.deviceId,
    deviceName: 'Pocket phone',
    credential: phone.credential,
  });
  await page.reload();
  registrationId = await registered;
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none'), { timeout: 30_000 })
    .toBe('activated');
  await expect.poll(() => page.evaluate(readWorkerCredential), { timeout: 15_000 }).toBe(phone.credential);
  expect(await page.evaluate(() => (Notification as unknown as { maxActions: number }).maxActions)).toBe(2);
  // Then in a pocket: no app open, so the host pushes to it.
  await page.goto('about:blank');
});

test.afterAll(async () => {
  await context?.close();
  runtime?.close();
  for (const socket of sockets.splice(0)) socket.disconnect();
  if (hostProcess && hostProcess.exitCode === null) {
    const exited = new Promise((resolve) => hostProcess?.once('exit', resolve));
    hostProcess.kill('SIGTERM');
    await exited;
  }
  await endpoint?.close();
  await bus?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
  expect(hostOutput, 'the device credential stays out of the host output').not.toContain(phone?.credential ?? '-');
});

async function startHost(dataDir: string, staticDir: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOST_SCRIPT], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, STATIC_DIR: staticDir, TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  hostProcess = child;
  return new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      hostOutput += chunk.toString();
      const match = /ACTIONS_E2E_HOST (\S+)/.exec(hostOutput);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`host exited (${code}) before listening:\n${hostOutput}`)));
  });
}

async function remote(credential: string): Promise<Socket> {
  const socket = io(`${hostUrl}${REMOTE_NAMESPACE}`, {
    auth: { credential, protocolVersion: REMOTE_PROTOCOL_VERSION },
    transports: ['websocket'],
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Runs in the page: the worker's record of this device (lib/client/worker-device.ts). */
function readWorkerCredential(): Promise<string | null> {
  return new Promise((resolve) => {
    const open = indexedDB.open('askaway');
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('cache')) return resolve(null);
      const get = db.transaction('cache').objectStore('cache').get('worker-device');
      get.onsuccess = () => resolve((get.result as { credential?: string } | undefined)?.credential ?? null);
      get.onerror = () => resolve(null);
    };
    open.onerror = () => resolve(null);
  });
}

/** The host's next push to the phone, decrypted and handed to its worker as the push service would. */
async function relayNextPush(): Promise<unknown> {
  const index = relayed;
  await expect.poll(() => endpoint.requests.length, { message: `push #${index + 1}` }).toBeGreaterThan(index);
  relayed += 1;
  const text = decryptWebPush(endpoint.requests[index]?.body ?? Buffer.alloc(0), keys);
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: hostUrl, registrationId, data: text });
  return JSON.parse(text);
}

/** The desktop notification Chromium showed for a question: a new one (not a replacement) with this text. */
async function shownFor(summary: string, body: string): Promise<DesktopNotification> {
  const find = () =>
    bus?.shown.find((shown) => shown.replaces === 0 && shown.summary.startsWith(summary) && shown.body.includes(body));
  await expect
    .poll(() => find()?.id ?? null, { message: `a notification "${summary}" among ${JSON.stringify(bus?.shown)}` })
    .not.toBeNull();
  const found = find();
  if (!found) throw new Error(`no notification titled ${summary}`);
  return found;
}

/** The notification that replaced `shown` (same tag: Chromium sends replaces_id), once it says something else. */
async function receiptOf(shown: DesktopNotification): Promise<DesktopNotification> {
  await expect
    .poll(() => bus?.shown.find((next) => next.replaces === shown.id && next.body !== shown.body)?.body ?? null)
    .not.toBeNull();
  const receipt = bus?.shown.find((next) => next.replaces === shown.id && next.body !== shown.body);
  if (!receipt) throw new Error('no receipt');
  return receipt;
}

const buttons = (shown: DesktopNotification) =>
  shown.actions.flatMap((key, index) => (/^\d$/.test(key) ? [shown.labels[index]] : []));

async function answerOf(requestId: string) {
  await expect.poll(() => runtime.resolutionsFor(requestId).length, { timeout: 10_000 }).toBe(1);
  return runtime.resolutionsFor(requestId)[0];
}

const CODEX_CHOICES = [
  { id: 'approved', label: 'Yes, run it', effect: 'allow' },
  { id: 'approved_for_session', label: 'Yes, and don’t ask again', effect: 'allow-session' },
  { id: 'denied', label: 'No, tell Codex why', effect: 'deny' },
  { id: 'abort', label: 'Stop', effect: 'cancel' },
] as const;

test("[R14.8][R14.10][R14.11] Allow on a Codex command approval answers with the agent's own choice, without a window", async () => {
  const requestId = await runtime.approval({ subject: 'command', command: 'npm test', choices: [...CODEX_CHOICES] });
  await relayNextPush();
  const shown = await shownFor('Run a command?', 'npm test');
  // Linux shows two buttons: the first way to allow and Deny; the rest stay on the card.
  expect(buttons(shown)).toEqual(['Yes, run it', 'No, tell Codex why']);
  const pages = context.pages().length;
  bus?.invoke(shown.id, '0');
  const answer = await answerOf(requestId);
  expect(answer?.response).toEqual({ action: 'accept', content: { choice: 'approved' } });
  expect(answer?.device?.label).toBe('Pocket phone');
  const receipt = await receiptOf(shown);
  expect(receipt.body).toBe('Allowed · received by Codex');
  expect(buttons(receipt)).toEqual([]);
  expect(context.pages().length, 'no window opened').toBe(pages);
  // The settled receipt closes itself, after the host's close push has come and gone.
  await relayNextPush();
  await expect.poll(() => bus?.closed.includes(receipt.id), { timeout: 10_000 }).toBe(true);
});

test('[R14.8] Deny on a tool permission sends a deny with no reason', async () => {
  const requestId = await runtime.permission('Bash', { command: 'rm -rf build' });
  await relayNextPush();
  const shown = await shownFor('Allow Bash?', 'rm -rf build');
  expect(buttons(shown)).toEqual(['Allow', 'Deny']);
  bus?.invoke(shown.id, '1');
  expect((await answerOf(requestId))?.response).toEqual({ action: 'decline' });
  expect((await receiptOf(shown)).body).toBe('Denied · received by Claude Code');
  await relayNextPush();
});

test("[R14.9] a single-select question's option button answers exactly that option", async () => {
  const question = 'Which database should the cache use?';
  const requestId = await runtime.ask({
    questions: [
      {
        question,
        header: 'Database',
        multiSelect: false,
        options: [
          { label: 'Postgres', description: 'Relational' },
          { label: 'SQLite', description: 'One file' },
        ],
      },
    ],
  });
  await relayNextPush();
  const shown = await shownFor('Database', 'cache');
  expect(buttons(shown)).toEqual(['Postgres', 'SQLite']);
  bus?.invoke(shown.id, '1');
  expect((await answerOf(requestId))?.response).toEqual({
    action: 'accept',
    content: { answers: { [question]: 'SQLite' } },
  });
  expect((await receiptOf(shown)).body).toContain('Answered “SQLite”');
  await relayNextPush();
});

test('[R14.9] a question with several questions has no answer buttons', async () => {
  await runtime.ask({
    questions: ['First?', 'Second?'].map((question, index) => ({
      question,
      header: `Several${index}`,
      multiSelect: false,
      options: [
        { label: 'A', description: 'a' },
        { label: 'B', description: 'b' },
      ],
    })),
  });
  await relayNextPush();
  expect(buttons(await shownFor('Several0', 'First?'))).toEqual([]);
});

test('[R14.10][R14.11] a press after another device answered gets the same receipt as the app, and the first answer stands', async () => {
  const requestId = await runtime.permission('Write', { file_path: 'src/app.ts' });
  await relayNextPush();
  const shown = await shownFor('Allow Write?', 'src/app.ts');
  const desk = await remote((await pairOverHttp(hostUrl, path.join(dir, 'data'), 'Desk')).credential);
  await expect(
    desk.emitWithAck('respond', { requestId, clientResponseId: 'desk-1', response: { action: 'decline' } }),
  ).resolves.toMatchObject({ ok: true, status: 'accepted' });
  // Its close push is held back: the person presses before it arrives.
  await expect.poll(() => endpoint.requests.length).toBeGreaterThan(relayed);
  relayed += 1;
  bus?.invoke(shown.id, '0');
  expect((await receiptOf(shown)).body).toBe('Already answered by another device (Desk)');
  expect(runtime.resolutionsFor(requestId).map((resolution) => resolution.response)).toEqual([{ action: 'decline' }]);
});

test('[R14.11] a press after the terminal answered says so', async () => {
  const requestId = await runtime.permission('Edit', { file_path: 'README.md' });
  await relayNextPush();
  const shown = await shownFor('Allow Edit?', 'README.md');
  await runtime.withdraw(requestId, undefined, { response: { action: 'accept' } });
  await expect.poll(() => endpoint.requests.length).toBeGreaterThan(relayed);
  relayed += 1;
  bus?.invoke(shown.id, '0');
  expect((await receiptOf(shown)).body).toBe('Already answered in the terminal');
  expect(runtime.resolutionsFor(requestId)).toEqual([]);
});

test('[R14.10][R14.11] offline, the answer waits in the outbox and the app sends it when it next runs', async () => {
  const requestId = await runtime.approval({ subject: 'command', command: 'make deploy', choices: [...CODEX_CHOICES] });
  await relayNextPush();
  const shown = await shownFor('Run a command?', 'make deploy');
  await context.setOffline(true);
  bus?.invoke(shown.id, '1');
  expect((await receiptOf(shown)).body).toBe('Will be sent when you’re online');
  expect(runtime.resolutionsFor(requestId)).toEqual([]);
  await context.setOffline(false);
  await page.goto(`${hostUrl}/`);
  expect((await answerOf(requestId))?.response).toEqual({ action: 'decline' });
});

test('[R14.12] "Answer buttons on notifications" off in Settings: the next notification has none, its tap still opens the card', async () => {
  await page.goto(`${hostUrl}/settings`);
  const toggle = page.getByTestId('settings.push-buttons');
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await expect.poll(() => page.evaluate(readAnswerButtons)).toBe(false);
  await page.goto('about:blank');
  // A question that comes while the app is still open on this phone gets no notification: wait until the host
  // has seen the page go (on a loaded machine its socket's close can come after the next announce).
  await expect.poll(phoneOnline, { timeout: 15_000 }).toBe(false);
  const requestId = await runtime.permission('Bash', { command: 'make clean' });
  await relayNextPush();
  const shown = await shownFor('Allow Bash?', 'make clean');
  expect(buttons(shown)).toEqual([]);
  bus?.invoke(shown.id, 'default');
  await expect.poll(() => context.pages().some((open) => open.url().endsWith(`/card?id=${requestId}`))).toBe(true);
  expect(runtime.resolutionsFor(requestId)).toEqual([]);
});

/** Whether the host counts this phone as connected right now (the admin API's device list). */
async function phoneOnline(): Promise<boolean | undefined> {
  const adminToken = (await readFile(path.join(dir, 'data', 'admin-token'), 'utf8')).trim();
  const reply = await fetch(`${hostUrl}/api/admin/devices`, { headers: { Authorization: `Bearer ${adminToken}` } });
  const { devices } = (await reply.json()) as { devices: { id: string; online: boolean }[] };
  return devices.find((device) => device.id === phone.deviceId)?.online;
}

/** Runs in the page: this device's choice as its worker reads it. */
function readAnswerButtons(): Promise<boolean | null> {
  return new Promise((resolve) => {
    const open = indexedDB.open('askaway');
    open.onsuccess = () => {
      const get = open.result.transaction('cache').objectStore('cache').get('worker-device');
      get.onsuccess = () => resolve((get.result as { answerButtons?: boolean } | undefined)?.answerButtons ?? null);
      get.onerror = () => resolve(null);
    };
    open.onerror = () => resolve(null);
  });
}
