import os from 'node:os';
import { io } from 'socket.io-client';
import {
  DeviceListSchema,
  PROTOCOL_VERSION,
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
  RUNTIME_NAMESPACE,
} from '../lib/contracts';
import { expect, test } from './support/fixtures';
import { AppPage } from './support/pages';
import { singleQuestion, STORAGE_QUESTION } from './support/payloads';

/** Connects with raw auth and returns the refusal's `{code, message}`, or 'connected'. */
function handshake(url: string, namespace: string, auth: Record<string, unknown>): Promise<unknown> {
  const socket = io(`${url}${namespace}`, { auth, transports: ['websocket'], reconnection: false });
  return new Promise((resolve) => {
    socket.once('connect', () => {
      socket.disconnect();
      resolve('connected');
    });
    socket.once('connect_error', (error: Error & { data?: unknown }) => {
      socket.disconnect();
      resolve(error.data ?? error.message);
    });
  });
}

test('[R16.2] pairs with a link: the code leaves the address bar, the device has its own credential', async ({
  page,
  host,
}) => {
  const app = new AppPage(page, host);
  const { link, code } = await host.mintPairingCode();
  await page.goto(link);
  await expect(page.getByTestId('pair.form')).toHaveAttribute('data-mode', 'link');
  expect(page.url()).not.toContain(code);
  await expect(page.getByTestId('pair.device')).not.toHaveValue('');
  await page.getByTestId('pair.device').fill('Anna’s phone');
  await page.getByTestId('pair.submit').click();
  await page.waitForURL((url) => url.pathname === '/');
  await app.waitConnected();
  const stored = await app.storedPairing();
  expect(stored?.credential).toMatch(/^aw_d_[0-9a-f]{16}_/);
  // A phone never holds the agent token (R16.1).
  expect(JSON.stringify(stored)).not.toContain(host.token);
  host.rememberSecret(stored?.credential ?? '');

  await page.getByTestId('nav.settings').click();
  const mine = page.locator('[data-testid="settings.device-row"][data-current="true"]');
  await expect(mine).toContainText('Anna’s phone');
  await expect(mine).toContainText('This device');
  await expect(mine).toHaveAttribute('data-device-id', stored?.deviceId ?? '');
});

test('[R16.3] reusing a link gets the plain page and changes nothing', async ({ page, host, browser }) => {
  const app = new AppPage(page, host);
  const { link } = await host.mintPairingCode();
  await app.pairWith(link, 'Phone');
  const before = await app.storedPairing();

  await page.goto(link);
  await expect(page.getByTestId('pair.already')).toBeVisible();
  await page.getByTestId('pair.submit').click();
  const invalid = page.getByTestId('pair.invalid');
  await expect(invalid).toContainText('This pairing link no longer works');
  await expect(invalid).toContainText('run “askaway pair” on the computer running Askaway');
  await expect(page.getByTestId('pair.unchanged')).toBeVisible();
  expect(new URL(page.url()).hash).toBe('');
  await page.getByTestId('pair.back').click();
  await app.waitConnected();
  expect(await app.storedPairing()).toEqual(before);

  // A second device with a photo of the same link: refused, nothing stored.
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const other = await context.newPage();
    await other.goto(link);
    await other.getByTestId('pair.submit').click();
    await expect(other.getByTestId('pair.invalid')).toBeVisible();
    await expect(other.getByTestId('pair.unchanged')).toHaveCount(0);
    expect(await other.evaluate(() => localStorage.getItem('askaway.pairing'))).toBeNull();
  } finally {
    await context.close();
  }
  const { devices } = DeviceListSchema.parse(
    await (
      await fetch(`${host.url}/api/admin/devices`, { headers: { Authorization: `Bearer ${host.adminToken}` } })
    ).json(),
  );
  expect(devices.map((device) => device.name)).toEqual(['Phone']);
});

test.describe('a short --pair-ttl', () => {
  test.use({ hostArgs: ['--pair-ttl', '1s'] });

  test('[R16.2] a link past its TTL is refused with the plain page', async ({ page, host }) => {
    const { link, expiresAt } = await host.mintPairingCode();
    await page.goto(link);
    await expect(page.getByTestId('pair.form')).toBeVisible();
    // The host's own word on when the code dies, not a guess of ours.
    await expect.poll(() => Date.now(), { timeout: 5_000 }).toBeGreaterThan(Date.parse(expiresAt));
    await page.getByTestId('pair.submit').click();
    await expect(page.getByTestId('pair.invalid')).toContainText('This pairing link no longer works');
    expect(await page.evaluate(() => localStorage.getItem('askaway.pairing'))).toBeNull();
  });
});

test('[R16.9] typing a host on the pairing form switches the paired note without moving the fields', async ({
  page,
  host,
}) => {
  const app = new AppPage(page, host);
  await app.pair('Phone');
  await app.goto('/pair');
  const note = page.getByTestId('pair.already');
  const code = page.getByTestId('pair.code');
  // No host typed: this host, the one the device is paired with.
  await expect(note).toHaveAttribute('data-same-host', 'true');
  // innerText: what is on screen (the other wording is laid out but hidden).
  await expect(note).toContainText('already paired', { useInnerText: true });
  const before = await code.boundingBox();

  await page.getByTestId('pair.host').pressSequentially('http://192.168.1.20:4417');
  await expect(note).toHaveAttribute('data-same-host', 'false');
  await expect(note).toContainText('Pairing with another host replaces that pairing here', { useInnerText: true });
  await expect(note).not.toContainText('already paired', { useInnerText: true });
  expect(await code.boundingBox()).toEqual(before);

  await page.getByTestId('pair.host').fill(host.url);
  await expect(note).toHaveAttribute('data-same-host', 'true');
  expect(await code.boundingBox()).toEqual(before);
});

test('[R16.4][R16.5] revoked from another device’s Settings: it drops at once and says so; the other keeps working', async ({
  app,
  openDevice,
  runtime,
}) => {
  const laptop = await openDevice({ viewport: { width: 1280, height: 800 } });
  const laptopId = (await laptop.storedPairing())?.deviceId ?? '';
  const phone = app;

  await phone.goto('/settings');
  const row = phone.page.locator(`[data-testid="settings.device-row"][data-device-id="${laptopId}"]`);
  await expect(row).toBeVisible();
  await expect(phone.page.getByTestId('settings.device-row')).toHaveCount(2);
  await row.getByTestId('settings.revoke').click();
  const dialog = phone.page.getByTestId('settings.revoke-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('settings.revoke-dialog-confirm').click();
  await expect(row).toHaveCount(0);

  // The laptop, without a reload: refused for good, the screen says what happened and how to pair again.
  const screen = laptop.page.getByTestId('pair-again');
  await expect(screen).toHaveAttribute('data-kind', 'device-revoked');
  await expect(screen).toContainText(`This device was removed from ${os.hostname()}`);
  await expect(screen).toContainText('run “askaway pair”');
  // Disconnected, and nothing the host sent is kept.
  expect(await laptop.page.evaluate(() => window.__askaway?.state.status)).not.toBe('connected');
  expect(await laptop.page.evaluate(() => window.__askaway?.state.host.interactions.size)).toBe(0);
  expect((await laptop.storedPairing())?.credential).toBeUndefined();
  await laptop.page.reload();
  await expect(laptop.page.getByTestId('pair-again')).toHaveAttribute('data-kind', 'device-revoked');

  // The phone keeps working.
  const requestId = await runtime.ask(singleQuestion);
  const card = await phone.openCard(requestId);
  await card.choose(0, 'SQLite');
  await card.submit();
  await expect
    .poll(() => runtime.resolutionsFor(requestId)[0]?.response)
    .toEqual({
      action: 'accept',
      content: { answers: { [STORAGE_QUESTION]: 'SQLite' } },
    });
});

test('[R16.7] an app still holding the old shared token is told plainly to pair again', async ({ page, host }) => {
  await page.addInitScript((token) => {
    localStorage.setItem('askaway.pairing', JSON.stringify({ hostUrl: '', token }));
  }, host.token);
  await page.goto(`${host.url}/`);
  const screen = page.getByTestId('pair-again');
  await expect(screen).toHaveAttribute('data-kind', 'legacy-token');
  await expect(screen).toContainText('Pair this device again');
  await expect(screen).toContainText('run “askaway pair”');
  await expect(page.getByTestId('nav')).toHaveCount(0);
  await screen.getByTestId('pair-again.pair').click();
  await expect(page.getByTestId('pair.form')).toHaveAttribute('data-mode', 'manual');
});

test('[R16.1] the agent token is refused on the remote side; a device credential on the runtime side and /mcp', async ({
  app,
  host,
}) => {
  expect(
    await handshake(host.url, REMOTE_NAMESPACE, { credential: host.token, protocolVersion: REMOTE_PROTOCOL_VERSION }),
  ).toEqual({ code: 'unauthorized', message: expect.stringContaining('This is the agent token') });
  const credential = (await app.storedPairing())?.credential ?? '';
  expect(
    await handshake(host.url, RUNTIME_NAMESPACE, {
      token: credential,
      protocolVersion: PROTOCOL_VERSION,
      runtimeId: 'x',
    }),
  ).toEqual({ code: 'unauthorized', message: expect.stringContaining('This is a device credential') });
  const mcp = await fetch(`${host.url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${credential}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
  });
  expect(mcp.status).toBe(401);
  expect(await mcp.text()).toContain('This is a device credential');
});

test('[R16.9] a paired phone that opens a new pairing link replaces its own entry, in every tab', async ({
  page,
  host,
}) => {
  const app = new AppPage(page, host);
  await app.pair('Anna’s phone');
  const before = await app.storedPairing();
  // A second tab of the same browser holds the same credential and stays open throughout.
  const tab = new AppPage(await page.context().newPage(), host);
  await tab.goto('/');
  await tab.waitConnected();
  // Renamed since it paired: the host's name is the one to keep.
  await page.getByTestId('nav.settings').click();
  await page.getByTestId('settings.device').fill('Anna’s Pixel');
  await page.getByTestId('settings.device').blur();
  await expect(page.locator('[data-testid="settings.device-row"][data-current="true"]')).toContainText('Anna’s Pixel');

  const { link } = await host.mintPairingCode();
  await page.goto(link);
  await expect(page.getByTestId('pair.already')).toBeVisible();
  // The name it has now is offered; left alone, the host keeps the name it knows.
  await expect(page.getByTestId('pair.device')).toHaveValue('Anna’s Pixel');
  await page.getByTestId('pair.submit').click();
  await page.waitForURL((url) => url.pathname === '/');
  await app.waitConnected();
  const after = await app.storedPairing();
  expect(after?.deviceId).toMatch(/^[0-9a-f]{16}$/);
  expect(after?.deviceId).not.toBe(before?.deviceId);
  host.rememberSecret(after?.credential ?? '');

  await page.getByTestId('nav.settings').click();
  const rows = page.getByTestId('settings.device-row');
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-current', 'true');
  await expect(rows).toHaveAttribute('data-device-id', after?.deviceId ?? '');
  await expect(rows).toContainText('Anna’s Pixel');
  await expect(rows).toContainText('This device');
  const { devices } = DeviceListSchema.parse(
    await (
      await fetch(`${host.url}/api/admin/devices`, { headers: { Authorization: `Bearer ${host.adminToken}` } })
    ).json(),
  );
  expect(devices.map((device) => [device.id, device.name])).toEqual([[after?.deviceId, 'Anna’s Pixel']]);

  // The other tab, without a reload, heard its old credential revoked and follows the new pairing
  // instead of showing "removed" (or writing that over the new credential).
  await tab.page.getByTestId('nav.settings').click();
  const mine = tab.page.locator('[data-testid="settings.device-row"][data-current="true"]');
  await expect(mine).toHaveAttribute('data-device-id', after?.deviceId ?? '');
  await expect(tab.page.getByTestId('settings.device-row')).toHaveCount(1);
  await expect(tab.page.getByTestId('pair-again')).toHaveCount(0);
  await tab.waitConnected();
  expect(await app.storedPairing()).toEqual(after);
});
