import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, type CDPSession, chromium, expect, type Page } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import { REMOTE_NAMESPACE, REMOTE_PROTOCOL_VERSION, type PairResponse } from '../../lib/contracts';
import { pairOverHttp } from '../../lib/host/test-support/devices';
import {
  decryptWebPush,
  makeSubscription,
  startRecordingServer,
  type BrowserKeys,
} from '../../lib/host/push/test-helpers';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { startNotificationBus, type DesktopNotification, type NotificationBus } from './notification-bus';

// A phone in a pocket whose notifications' buttons are pressed for real (R14.8–R14.11). Chromium on Linux shows
// web notifications through the desktop's notification service on D-Bus: a private session bus and a fake
// service of the suite's own record what it shows and press its buttons (ActionInvoked), which the app's real
// service worker gets as a trusted notificationclick with its action. The host's pushes go to a local recording
// endpoint (CI reaches no push service); each is decrypted and handed to the worker through the DevTools
// protocol, as the push service would deliver it.

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const OUT_DIR = process.env.ASKAWAY_E2E_OUT_DIR ?? path.join(ROOT, 'out');

/** The host the phone is paired with: its URL and the data dir whose admin token mints pairing codes. */
export interface PairingHost {
  url: string;
  dataDir: string;
}

/** createHost + startPush from source (tsx), what `askaway start` runs, with push's timing set by the test. */
export interface PushHost extends PairingHost {
  token: string;
  output(): string;
  stop(): Promise<void>;
}

export interface NotificationPhone {
  context: BrowserContext;
  /** The app's page; about:blank while the phone is in a pocket. */
  page: Page;
  device: PairResponse;
  bus: NotificationBus;
  /** What the host pushed to this phone, in order. */
  pushes(): number;
  /**
   * The host's next push, decrypted and handed to the worker; its payload. `timeoutMs` for a push that waits on an
   * agent's own work (its start-up and model turn before it asks: forAgentWork()), else the expect timeout.
   */
  relayNextPush(timeoutMs?: number): Promise<unknown>;
  /** Waits for the host's next push and never delivers it (a close push that comes too late). */
  holdNextPush(): Promise<void>;
  /** What Chromium's Background Sync did for this origin, as DevTools records it ("Registered sync: tag"…). */
  syncEvents: string[];
  /** The desktop notification shown for a question: a new one (not a replacement) with this text. */
  shownFor(summary: string, body: string): Promise<DesktopNotification>;
  /** Presses a button ("0", "1"…) or taps the notification ("default"). */
  press(shown: DesktopNotification, action: string): void;
  /** The notification that replaced `shown` (same tag), once it says something else. */
  receiptOf(shown: DesktopNotification): Promise<DesktopNotification>;
  close(): Promise<void>;
}

/** The answer buttons' labels (Chromium's own "default" and "settings" left out). */
export const buttons = (shown: DesktopNotification): (string | undefined)[] =>
  shown.actions.flatMap((key, index) => (/^\d$/.test(key) ? [shown.labels[index]] : []));

const HOST_SCRIPT = `
const { createHost } = await import(${JSON.stringify(path.join(ROOT, 'lib/host/create-host.ts'))});
const { startPush } = await import(${JSON.stringify(path.join(ROOT, 'lib/host/push/start-push.ts'))});
const host = await createHost({ dataDir: process.env.DATA_DIR, port: 0, token: process.env.TOKEN, staticDir: process.env.STATIC_DIR, writeHostFile: false });
const push = await startPush(host, JSON.parse(process.env.PUSH_OPTIONS));
console.log('PUSH_HOST ' + host.url);
process.on('SIGTERM', async () => { await host.close(); await push.close(); process.exit(0); });
`;

/** A host with push on its own data dir in `dir`; the collapse window (and the rate limit, if set) are the test's. */
export async function startPushHost(
  dir: string,
  token: string,
  push: { collapseWindowMs: number; rateLimitMax?: number },
): Promise<PushHost> {
  const dataDir = path.join(dir, 'data');
  const staticDir = path.join(dir, 'static');
  await cp(OUT_DIR, staticDir, { recursive: true });
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOST_SCRIPT], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      STATIC_DIR: staticDir,
      TOKEN: token,
      // The suite's recording push service is on loopback: the owner's to allow, as --allow-private-push does (R12.20).
      PUSH_OPTIONS: JSON.stringify({ ...push, allowPrivatePush: true }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /PUSH_HOST (\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`host exited (${code}) before listening:\n${output}`)));
  });
  return {
    url,
    dataDir,
    token,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A device's socket on the host's '/remote', connected. */
export async function connectRemote(hostUrl: string, credential: string): Promise<Socket> {
  const socket = io(`${hostUrl}${REMOTE_NAMESPACE}`, {
    auth: { credential, protocolVersion: REMOTE_PROTOCOL_VERSION },
    transports: ['websocket'],
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

/**
 * The app in Chromium, paired with `host` as `deviceName` and subscribed to its pushes, then put in a pocket
 * (about:blank): the host pushes to it, and its notifications are on `bus`. The sw.js served must be a build
 * with answer buttons.
 */
export async function openNotificationPhone(host: PairingHost, deviceName: string): Promise<NotificationPhone> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'askaway-notification-phone-'));
  const opened: { close(): Promise<unknown> }[] = [];
  const close = async () => {
    for (const resource of opened.reverse()) await resource.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const served = await fetch(`${host.url}/sw.js`).then((response) => response.text());
    expect(served, 'rebuild: sw.js has no answer buttons').toContain('/api/respond');
    const bus = await startNotificationBus(dir);
    opened.push({ close: bus.stop });
    const endpoint = await startRecordingServer();
    opened.push(endpoint);
    const keys: BrowserKeys = makeSubscription(`${endpoint.url}/push/phone`);
    const device = await pairOverHttp(host.url, host.dataDir, deviceName);
    // The phone subscribed earlier (pushManager.subscribe reaches no push service here): its own subscription.
    const subscriber = await connectRemote(host.url, device.credential);
    try {
      await expect(
        subscriber.emitWithAck('push:subscribe', { subscription: keys.subscription }),
      ).resolves.toMatchObject({ ok: true });
    } finally {
      subscriber.disconnect();
    }

    // A persistent context: only there does the desktop's click reach the service worker.
    const context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      serviceWorkers: 'allow',
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: bus.address },
    });
    opened.push(context);
    // Granting some permissions denies the rest: Background Sync is on by default in Chrome.
    await context.grantPermissions(['notifications', 'background-sync'], { origin: host.url });
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp: CDPSession = await context.newCDPSession(page);
    const registered = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const mine = registrations.find((entry) => entry.scopeURL.startsWith(host.url) && !entry.isDeleted);
        if (mine) resolve(mine.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const syncEvents: string[] = [];
    cdp.on('BackgroundService.backgroundServiceEventReceived', ({ backgroundServiceEvent: event }) => {
      // A sync's instance is its tag.
      if (event.origin.startsWith(host.url)) syncEvents.push(`${event.eventName}: ${event.instanceId}`);
    });
    await cdp.send('BackgroundService.setRecording', { shouldRecord: true, service: 'backgroundSync' });
    await cdp.send('BackgroundService.startObserving', { service: 'backgroundSync' });
    // The app, paired as this phone, keeps the device's credential where its worker reads it (R14.10).
    await page.goto(`${host.url}/`);
    await page.evaluate((pairing) => localStorage.setItem('askaway.pairing', JSON.stringify(pairing)), {
      hostUrl: '',
      hostName: 'e2e',
      deviceId: device.deviceId,
      deviceName,
      credential: device.credential,
    });
    await page.reload();
    const registrationId = await registered;
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none'), { timeout: 30_000 })
      .toBe('activated');
    await expect.poll(() => page.evaluate(readWorkerCredential), { timeout: 15_000 }).toBe(device.credential);
    expect(await page.evaluate(() => (Notification as unknown as { maxActions: number }).maxActions)).toBe(2);
    // Then in a pocket: no app open, so the host pushes to it.
    await page.goto('about:blank');

    let relayed = 0;
    const nextPush = async (timeout?: number) => {
      const index = relayed;
      await expect
        .poll(() => endpoint.requests.length, { message: `push #${index + 1}`, timeout })
        .toBeGreaterThan(index);
      relayed += 1;
      return decryptWebPush(endpoint.requests[index]?.body ?? Buffer.alloc(0), keys);
    };
    const replacementOf = (shown: DesktopNotification) =>
      bus.shown.find((next) => next.replaces === shown.id && next.body !== shown.body);
    return {
      context,
      page,
      device,
      bus,
      pushes: () => endpoint.requests.length,
      syncEvents,
      async relayNextPush(timeoutMs) {
        const text = await nextPush(timeoutMs);
        await cdp.send('ServiceWorker.deliverPushMessage', { origin: host.url, registrationId, data: text });
        return JSON.parse(text) as unknown;
      },
      async holdNextPush() {
        await nextPush();
      },
      async shownFor(summary, body) {
        const find = () =>
          bus.shown.find(
            (shown) => shown.replaces === 0 && shown.summary.startsWith(summary) && shown.body.includes(body),
          );
        await expect
          .poll(() => find()?.id ?? null, { message: `a notification "${summary}" among ${JSON.stringify(bus.shown)}` })
          .not.toBeNull();
        const found = find();
        if (!found) throw new Error(`no notification titled ${summary}`);
        return found;
      },
      press: (shown, action) => bus.invoke(shown.id, action),
      async receiptOf(shown) {
        // The worker's press goes through IndexedDB, a fetch (or a sync registration) and a replacement notification:
        // a CI machine at a load of 11 took over the 7 s expect timeout for it once.
        await expect.poll(() => replacementOf(shown)?.body ?? null, { timeout: 15_000 }).not.toBeNull();
        const receipt = replacementOf(shown);
        if (!receipt) throw new Error('no receipt');
        return receipt;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
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

/** Whether the host counts this device as connected right now (the admin API's device list). */
export async function deviceOnline(host: PairingHost, deviceId: string): Promise<boolean | undefined> {
  const adminToken = (await readFile(path.join(host.dataDir, 'admin-token'), 'utf8')).trim();
  const reply = await fetch(`${host.url}/api/admin/devices`, { headers: { Authorization: `Bearer ${adminToken}` } });
  const { devices } = (await reply.json()) as { devices: { id: string; online: boolean }[] };
  return devices.find((device) => device.id === deviceId)?.online;
}
