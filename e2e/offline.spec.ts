import { expect, test } from './support/fixtures';
import { singleQuestion } from './support/payloads';
import { RemoteClient } from './support/remote-client';

test.describe('offline outbox (R9.8)', () => {
  // The service worker serves the app shell for the reload while offline.
  test.use({ serviceWorkers: 'allow' });

  test('[R9.8] answer offline, reload offline, back online: delivered exactly once', async ({
    app,
    runtime,
    context,
  }) => {
    const { page } = app;
    const requestId = await runtime.ask(singleQuestion);
    const card = await app.openCard(requestId);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.waitForFunction(() => window.__askaway?.cacheSavedAt !== null);

    await context.setOffline(true);
    await expect(page.getByTestId('connection.status')).toHaveAttribute('data-status', 'offline');
    await card.choose(0, 'SQLite');
    await card.submit();
    await expect(card.receipt).toHaveAttribute('data-state', 'queued');
    await expect(page.getByTestId('card.receipt-status')).toHaveText('Queued — will send when connected');
    await expect(page.getByTestId('connection.status')).toContainText('1 answer(s) queued');

    await page.reload();
    // Restored from IndexedDB (the answer) and the cached host state (the card).
    await expect(card.receipt).toHaveAttribute('data-state', 'queued');
    await expect(card.receipt).toContainText('SQLite');
    expect(runtime.resolutionsFor(requestId)).toHaveLength(0);

    await context.setOffline(false);
    await expect(card.receipt).toHaveAttribute('data-state', /delivered|applied/, { timeout: 15_000 });
    await expect.poll(() => runtime.resolutionsFor(requestId).length).toBeGreaterThan(0);
    const ids = new Set(runtime.resolutionsFor(requestId).map((resolution) => resolution.clientResponseId));
    expect(ids.size).toBe(1);
    expect(runtime.resolutionsFor(requestId)[0]?.response).toEqual({
      action: 'accept',
      content: { answers: { [singleQuestion.questions[0]?.question ?? '']: 'SQLite' } },
    });
    // The outbox entry is gone only now that the host acknowledged it.
    await expect.poll(() => page.evaluate(() => window.__askaway?.queued)).toBe(0);
  });

  test('[R9.8][R6.4] resolved by auto-resolution while offline: the card says so and the typed text stays readable', async ({
    app,
    runtime,
    context,
    host,
  }) => {
    const { page } = app;
    const other = new RemoteClient(host.url, (await host.pairDevice('Work laptop')).credential);
    await other.setPreferences({
      askUserQuestionAutoResolutionEnabled: true,
      askUserQuestionAutoResolutionTimeoutMs: 6_000,
    });
    other.close();
    const requestId = await runtime.ask(singleQuestion);
    const card = await app.openCard(requestId);
    await expect(page.getByTestId('countdown').first()).toContainText('Agent continues on its own in 0:0');

    await context.setOffline(true);
    await expect(page.getByTestId('connection.status')).toHaveAttribute('data-status', 'offline');
    await card.other(0, 'Use the cache we already run in prod');
    await card.submit();
    await expect(card.receipt).toHaveAttribute('data-state', 'queued');
    await expect.poll(() => runtime.resolutionsFor(requestId).length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(runtime.resolutionsFor(requestId)[0]?.resolvedBy).toBe('auto');

    await context.setOffline(false);
    await expect(card.receipt).toHaveAttribute('data-state', 'lost', { timeout: 15_000 });
    await expect(page.getByTestId('card.receipt-status')).toContainText('Already answered by auto-resolution at');
    await expect(page.getByTestId('card.your-answer')).toContainText('Use the cache we already run in prod');
    // Still readable after a reload: a lost answer stays in IndexedDB.
    await page.reload();
    await expect(page.getByTestId('card.your-answer')).toContainText('Use the cache we already run in prod');
    expect(runtime.resolutionsFor(requestId).every((resolution) => resolution.resolvedBy === 'auto')).toBe(true);
  });
});

test('[R9.2][R8.2] host restarted while the page is open: pending restored, the answer is delivered', async ({
  app,
  runtime,
  host,
}) => {
  const { page } = app;
  const requestId = await runtime.ask(singleQuestion);
  const card = await app.openCard(requestId);
  // The open page resumes from its lastSeq after the restart (the log survived): a replay, not a snapshot.
  const before = await page.evaluate(() => window.__askaway?.syncedAt ?? 0);
  await host.restart();
  await page.waitForFunction((t) => (window.__askaway?.syncedAt ?? 0) > t, before, { timeout: 15_000 });
  await expect(page.getByTestId('connection.status')).toHaveAttribute('data-status', 'connected');
  await expect(card.root).toHaveAttribute('data-status', 'pending');
  await card.choose(0, 'Memcached');
  await card.submit();
  await expect
    .poll(() => runtime.resolutionsFor(requestId)[0]?.response, { timeout: 15_000 })
    .toEqual({
      action: 'accept',
      content: { answers: { [singleQuestion.questions[0]?.question ?? '']: 'Memcached' } },
    });
  await expect(card.receipt).toHaveAttribute('data-state', /delivered|applied/);
});

test('[R10.3] two devices: one answers, the other updates at once and keeps its own draft readable', async ({
  app,
  runtime,
  openDevice,
}) => {
  const desktop = await openDevice({ viewport: { width: 1280, height: 800 } });
  const requestId = await runtime.ask(singleQuestion);
  const phoneCard = await app.openCard(requestId);
  const desktopCard = await desktop.openCard(requestId);
  await desktopCard.option(0, 'SQLite').click();
  await phoneCard.choose(0, 'Memcached');
  await phoneCard.submit();
  await expect(phoneCard.receipt).toHaveAttribute('data-state', /delivered|applied/);
  await expect(desktopCard.receipt).toHaveAttribute('data-state', 'lost');
  await expect(desktop.page.getByTestId('card.receipt-status')).toContainText('Already answered by another device');
  await expect(desktopCard.receipt).toContainText('Memcached');
  await expect(desktop.page.getByTestId('card.your-answer')).toContainText('SQLite');
  await desktop.goto('/');
  await expect(desktop.inbox.item(requestId)).toHaveCount(0);
  expect(runtime.resolutionsFor(requestId)).toHaveLength(1);
});
