import { type WebSocket } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { singleQuestion } from './support/payloads';

// R13.8: on a reload a paired device connects from <head> (lib/client/socket-prefetch.ts), so the host's snapshot
// is on its way while the app's code loads; the live connection then takes that socket over.

test('[R13.8] a reload connects from <head>: the snapshot arrives before the app runs, on the one socket the connection then uses', async ({
  app,
  runtime,
}) => {
  const { page } = app;
  const requestId = await runtime.ask(singleQuestion);
  await app.goto('/');
  await expect(app.inbox.item(requestId)).toBeVisible();

  const sockets: { socket: WebSocket; received: string[] }[] = [];
  page.on('websocket', (socket) => {
    const entry = { socket, received: [] as string[] };
    socket.on('framereceived', (frame) => entry.received.push(String(frame.payload)));
    sockets.push(entry);
  });
  // No script file runs until released: what happens meanwhile is the HTML's own inline scripts.
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_next/static/**/*.js', async (route) => {
    await released;
    await route.continue();
  });
  await page.reload({ waitUntil: 'domcontentloaded' });
  await expect.poll(() => sockets.length).toBe(1);
  await expect
    .poll(() => sockets[0]?.received.some((payload) => payload.startsWith('42/remote,["snapshot"')))
    .toBe(true);
  expect(await page.evaluate(() => window.__askaway)).toBeUndefined();

  release();
  await expect(page.getByTestId('inbox.list')).toHaveAttribute('data-live', 'true');
  await expect(app.inbox.item(requestId)).toBeVisible();
  // Taken over, not opened again; and it carries what the connection does next.
  expect(sockets).toHaveLength(1);
  // A tap, not a page load: the same page and connection (a load would open its own early socket).
  await app.inbox.item(requestId).click();
  await expect(app.card().root).toHaveAttribute('data-request-id', requestId);
  await app.card().option(0, 'SQLite').click();
  await app.card().submit();
  await expect.poll(() => runtime.resolutionsFor(requestId).length).toBe(1);
  expect(sockets).toHaveLength(1);
});
