import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { type Socket } from 'socket.io-client';
import { ANSWER_SYNC_TAG } from '../lib/client/sw/notification-answers';
import { pairOverHttp } from '../lib/host/test-support/devices';
import {
  buttons,
  connectRemote,
  deviceOnline,
  openNotificationPhone,
  startPushHost,
  type NotificationPhone,
  type PushHost,
} from './support/notification-press';
import { ScriptedRuntime } from './support/scripted-runtime';

// A notification's answer buttons, pressed for real (R14.8–R14.11), through the desktop's notification service
// (./support/notification-press.ts): the answer goes from the app's real service worker to the real host, and
// the scripted agent gets it.

const TOKEN = 'notification-actions-e2e-token';

let dir: string;
let host: PushHost;
let runtime: ScriptedRuntime;
let phone: NotificationPhone;
const sockets: Socket[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({}, testInfo) => {
  test.skip(
    testInfo.project.name !== testInfo.config.projects[0]?.name,
    'the worker and the desktop are the same in every project: run once',
  );
  dir = await mkdtemp(path.join(os.tmpdir(), 'askaway-actions-e2e-'));
  host = await startPushHost(dir, TOKEN, { collapseWindowMs: 200, rateLimitMax: 100 });
  runtime = new ScriptedRuntime(host.url, TOKEN);
  phone = await openNotificationPhone(host, 'Pocket phone');
});

test.afterAll(async () => {
  await phone?.close();
  runtime?.close();
  for (const socket of sockets.splice(0)) socket.disconnect();
  await host?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
  expect(host?.output() ?? '', 'the device credential stays out of the host output').not.toContain(
    phone?.device.credential ?? '-',
  );
});

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
  await phone.relayNextPush();
  const shown = await phone.shownFor('Run a command?', 'npm test');
  // Linux shows two buttons: the first way to allow and Deny; the rest stay on the card.
  expect(buttons(shown)).toEqual(['Yes, run it', 'No, tell Codex why']);
  const pages = phone.context.pages().length;
  phone.press(shown, '0');
  const answer = await answerOf(requestId);
  expect(answer?.response).toEqual({ action: 'accept', content: { choice: 'approved' } });
  expect(answer?.device?.label).toBe('Pocket phone');
  const receipt = await phone.receiptOf(shown);
  expect(receipt.body).toBe('Allowed · received by Codex');
  expect(buttons(receipt)).toEqual([]);
  expect(phone.context.pages().length, 'no window opened').toBe(pages);
  // The settled receipt closes itself, after the host's close push has come and gone.
  await phone.relayNextPush();
  await expect.poll(() => phone.bus.closed.includes(receipt.id), { timeout: 10_000 }).toBe(true);
});

test('[R14.8] Deny on a tool permission sends a deny with no reason', async () => {
  const requestId = await runtime.permission('Bash', { command: 'rm -rf build' });
  await phone.relayNextPush();
  const shown = await phone.shownFor('Allow Bash?', 'rm -rf build');
  expect(buttons(shown)).toEqual(['Allow', 'Deny']);
  phone.press(shown, '1');
  expect((await answerOf(requestId))?.response).toEqual({ action: 'decline' });
  expect((await phone.receiptOf(shown)).body).toBe('Denied · received by Claude Code');
  await phone.relayNextPush();
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
  await phone.relayNextPush();
  const shown = await phone.shownFor('Database', 'cache');
  expect(buttons(shown)).toEqual(['Postgres', 'SQLite']);
  phone.press(shown, '1');
  expect((await answerOf(requestId))?.response).toEqual({
    action: 'accept',
    content: { answers: { [question]: 'SQLite' } },
  });
  expect((await phone.receiptOf(shown)).body).toContain('Answered “SQLite”');
  await phone.relayNextPush();
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
  await phone.relayNextPush();
  expect(buttons(await phone.shownFor('Several0', 'First?'))).toEqual([]);
});

test('[R14.10][R14.11] a press after another device answered gets the same receipt as the app, and the first answer stands', async () => {
  const requestId = await runtime.permission('Write', { file_path: 'src/app.ts' });
  await phone.relayNextPush();
  const shown = await phone.shownFor('Allow Write?', 'src/app.ts');
  const desk = await connectRemote(host.url, (await pairOverHttp(host.url, host.dataDir, 'Desk')).credential);
  sockets.push(desk);
  await expect(
    desk.emitWithAck('respond', { requestId, clientResponseId: 'desk-1', response: { action: 'decline' } }),
  ).resolves.toMatchObject({ ok: true, status: 'accepted' });
  // Its close push is held back: the person presses before it arrives.
  await phone.holdNextPush();
  phone.press(shown, '0');
  expect((await phone.receiptOf(shown)).body).toBe('Already answered by another device (Desk)');
  expect(runtime.resolutionsFor(requestId).map((resolution) => resolution.response)).toEqual([{ action: 'decline' }]);
});

test('[R14.11] a press after the terminal answered says so', async () => {
  const requestId = await runtime.permission('Edit', { file_path: 'README.md' });
  await phone.relayNextPush();
  const shown = await phone.shownFor('Allow Edit?', 'README.md');
  await runtime.withdraw(requestId, undefined, { response: { action: 'accept' } });
  await phone.holdNextPush();
  phone.press(shown, '0');
  expect((await phone.receiptOf(shown)).body).toBe('Already answered in the terminal');
  expect(runtime.resolutionsFor(requestId)).toEqual([]);
});

// Chromium lets a worker register a sync only while a window of its origin is open ("without a window": an
// InvalidAccessError), as when the app is in the background on a phone. A page of the origin that is not the app
// stands in for it here: the app itself would be visible, and the host pushes only to a device not looking.
test('[R14.11] offline with a window of the origin open, the press asks for Background Sync: back online, the worker sends the answer', async () => {
  const requestId = await runtime.approval({
    subject: 'command',
    command: 'make release',
    choices: [...CODEX_CHOICES],
  });
  await phone.relayNextPush();
  const shown = await phone.shownFor('Run a command?', 'make release');
  await phone.page.goto(`${host.url}/icons/icon-192.png`);
  await phone.context.setOffline(true);
  phone.press(shown, '1');
  const queued = await phone.receiptOf(shown);
  expect(queued.body).toBe('Will be sent when you’re online');
  expect(phone.syncEvents).toEqual([`Registered sync: ${ANSWER_SYNC_TAG}`]);
  expect(runtime.resolutionsFor(requestId)).toEqual([]);
  await phone.context.setOffline(false);
  expect((await answerOf(requestId))?.response).toEqual({ action: 'decline' });
  expect(phone.syncEvents).toEqual([
    `Registered sync: ${ANSWER_SYNC_TAG}`,
    `Dispatched sync event: ${ANSWER_SYNC_TAG}`,
  ]);
  expect((await phone.receiptOf(queued)).body).toBe('Denied · received by Codex');
  expect(phone.context.pages().map((open) => open.url())).toEqual([`${host.url}/icons/icon-192.png`]);
  await phone.relayNextPush();
  await phone.page.goto('about:blank');
});

test('[R14.10][R14.11] offline, the answer waits in the outbox and the app sends it when it next runs', async () => {
  const requestId = await runtime.approval({ subject: 'command', command: 'make deploy', choices: [...CODEX_CHOICES] });
  await phone.relayNextPush();
  const shown = await phone.shownFor('Run a command?', 'make deploy');
  const registered = phone.syncEvents.filter((event) => event.startsWith('Registered')).length;
  await phone.context.setOffline(true);
  phone.press(shown, '1');
  expect((await phone.receiptOf(shown)).body).toBe('Will be sent when you’re online');
  expect(runtime.resolutionsFor(requestId)).toEqual([]);
  // No window of the origin: Chromium registers no sync, and the answer waits for the app.
  expect(phone.syncEvents.filter((event) => event.startsWith('Registered'))).toHaveLength(registered);
  await phone.context.setOffline(false);
  await phone.page.goto(`${host.url}/`);
  expect((await answerOf(requestId))?.response).toEqual({ action: 'decline' });
});

test('[R14.12] "Answer buttons on notifications" off in Settings: the next notification has none, its tap still opens the card', async () => {
  await phone.page.goto(`${host.url}/settings`);
  const toggle = phone.page.getByTestId('settings.push-buttons');
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await expect.poll(() => phone.page.evaluate(readAnswerButtons)).toBe(false);
  await phone.page.goto('about:blank');
  // A question that comes while the app is still open on this phone gets no notification: wait until the host
  // has seen the page go (on a loaded machine its socket's close can come after the next announce).
  await expect.poll(() => deviceOnline(host, phone.device.deviceId), { timeout: 15_000 }).toBe(false);
  const requestId = await runtime.permission('Bash', { command: 'make clean' });
  await phone.relayNextPush();
  const shown = await phone.shownFor('Allow Bash?', 'make clean');
  expect(buttons(shown)).toEqual([]);
  phone.press(shown, 'default');
  await expect
    .poll(() => phone.context.pages().some((open) => open.url().endsWith(`/card?id=${requestId}`)))
    .toBe(true);
  expect(runtime.resolutionsFor(requestId)).toEqual([]);
});

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
