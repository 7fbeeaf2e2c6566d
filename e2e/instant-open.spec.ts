import { type Page } from '@playwright/test';
import { axeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { type AppPage } from './support/pages';
import { singleQuestion, STORAGE_QUESTION } from './support/payloads';
import { RemoteClient } from './support/remote-client';

/** A time of day, with the date in front when it is not today ("14:02", "1 Dec 00:15" past midnight). */
const TIME_OF_DAY = String.raw`(?:\d{1,2} [A-Z][a-z]+ )?\d\d:\d\d`;

// R9.13: the inbox this device saw last is on screen at once, marked as not live, until the host's
// snapshot replaces it. The service worker serves the app while the host is down.
test.use({ serviceWorkers: 'allow' });

const SQLITE = { action: 'accept', content: { answers: { [STORAGE_QUESTION]: 'SQLite' } } } as const;

/** The request ids in the host state this device saved for next time (IndexedDB). */
function cachedRequestIds(): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('askaway');
    open.onerror = () => reject(open.error ?? new Error('IndexedDB open failed'));
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('cache')) {
        db.close();
        resolve([]);
        return;
      }
      const get = db.transaction('cache').objectStore('cache').get('host');
      get.onerror = () => reject(get.error ?? new Error('IndexedDB read failed'));
      get.onsuccess = () => {
        const saved = get.result as { interactions?: { requestId: string }[] } | undefined;
        db.close();
        resolve((saved?.interactions ?? []).map((view) => view.requestId));
      };
    };
  });
}

/** Waits until the service worker controls the page and the inbox with these questions is saved for next time. */
async function cacheInbox(app: AppPage, requestIds: string[]): Promise<void> {
  const { page } = app;
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  for (const id of requestIds) await expect(app.inbox.item(id)).toBeVisible();
  await expect.poll(() => page.evaluate(cachedRequestIds)).toEqual(expect.arrayContaining(requestIds));
  // Away from the app, so what happens next reaches only the host (and its cache stays as it was).
  await page.goto('about:blank');
}

async function expectNotLive(page: Page): Promise<void> {
  const status = page.getByTestId('connection.status');
  await expect(status).toHaveAttribute('data-live', 'false');
  await expect(status).toHaveText(new RegExp(`^Last seen ${TIME_OF_DAY} · connecting…$`));
}

test('[R9.13] opened with the host down: the cached inbox, marked not live; the live one replaces it', async ({
  app,
  host,
  runtime,
}) => {
  const { page } = app;
  const laptop = new RemoteClient(host.url, (await host.pairDevice()).credential);
  // Deadlines far enough away that nothing resolves on its own during the test.
  await laptop.setPreferences({
    askUserQuestionAutoResolutionEnabled: true,
    askUserQuestionAutoResolutionTimeoutMs: 30 * 60_000,
  });
  const answered = await runtime.ask(singleQuestion);
  const waiting = await runtime.ask(singleQuestion);
  await cacheInbox(app, [answered, waiting]);

  await expect(laptop.respond(answered, SQLITE)).resolves.toMatchObject({ ok: true, status: 'accepted' });
  laptop.close();
  await host.halt();

  await app.goto('/');
  await expect(app.inbox.item(answered)).toBeVisible();
  await expect(app.inbox.item(waiting)).toBeVisible();
  await expect(page.getByTestId('inbox.list')).toHaveAttribute('data-live', 'false');
  await expectNotLive(page);
  await expect(page.getByTestId('connection.banner')).toContainText('Cannot reach the host');
  // The banner stands outside <main>: a landmark of its own, or axe finds content outside every landmark.
  expect(await axeViolations(page)).toEqual([]);
  // Not live, so no running countdown: the deadline as a time of day.
  const countdown = app.inbox.item(waiting).getByTestId('countdown');
  await expect(countdown).toHaveAttribute('data-live', 'false');
  await expect(countdown).toHaveText(new RegExp(`^Agent continues on its own at ${TIME_OF_DAY}$`));
  const before = await app.inbox.item(waiting).boundingBox();

  await host.resume();
  await expect(page.getByTestId('connection.status')).toHaveAttribute('data-live', 'true', { timeout: 15_000 });
  await expect(page.getByTestId('connection.status')).toHaveText('Connected');
  await expect(page.getByTestId('inbox.list')).toHaveAttribute('data-live', 'true');
  await expect(countdown).toHaveText(/^Agent continues on its own in \d+:\d\d$/);
  // Resolved on the laptop meanwhile: gone from the inbox, and its outcome is in the history.
  await expect(app.inbox.item(answered)).toHaveCount(0);
  await expect(app.inbox.item(waiting)).toBeVisible();
  // The same list: once its agent is back (a hub restart drops every agent for a moment, and the row
  // says so while it waits), the row that stays keeps its size.
  await expect(app.inbox.item(waiting).getByTestId('inbox.waiting-for-machine')).toHaveCount(0);
  const after = await app.inbox.item(waiting).boundingBox();
  expect(after?.height).toBe(before?.height);
  expect(after?.width).toBe(before?.width);
  await app.goto('/history');
  await expect(page.locator(`[data-testid="history.item"][data-request-id="${answered}"]`)).toContainText('SQLite');
});

test('[R9.13][R9.8] answers on cached cards are queued, delivered when the host is back, or shown as already answered', async ({
  app,
  host,
  runtime,
}) => {
  const { page } = app;
  const answered = await runtime.ask(singleQuestion);
  const waiting = await runtime.ask(singleQuestion);
  await cacheInbox(app, [answered, waiting]);

  const laptop = new RemoteClient(host.url, (await host.pairDevice()).credential);
  await expect(laptop.respond(answered, SQLITE)).resolves.toMatchObject({ ok: true, status: 'accepted' });
  laptop.close();
  await host.halt();

  // Both cards come from the cache and take an answer; neither can be sent yet.
  for (const [id, choice] of [
    [answered, 'Memcached'],
    [waiting, 'Redis (Recommended)'],
  ] as const) {
    await app.goto(`/card?id=${encodeURIComponent(id)}`);
    const card = app.card();
    await expect(card.root).toHaveAttribute('data-request-id', id);
    await expectNotLive(page);
    await card.choose(0, choice);
    await card.submit();
    await expect(card.receipt).toHaveAttribute('data-state', 'queued');
    await expect(page.getByTestId('card.receipt-status')).toHaveText('Queued — will send when connected');
  }
  expect(runtime.resolutionsFor(waiting)).toHaveLength(0);

  await host.resume();
  const card = app.card();
  await expect(card.receipt).toHaveAttribute('data-state', /delivered|applied/, { timeout: 15_000 });
  await expect
    .poll(() => runtime.resolutionsFor(waiting).map((resolution) => resolution.response))
    .toEqual([{ action: 'accept', content: { answers: { [STORAGE_QUESTION]: 'Redis (Recommended)' } } }]);

  await app.goto(`/card?id=${encodeURIComponent(answered)}`);
  await expect(card.receipt).toHaveAttribute('data-state', 'lost');
  await expect(page.getByTestId('card.receipt-status')).toContainText(
    'Already answered by another device (Work laptop) at',
  );
  await expect(card.receipt).toContainText('SQLite');
  await expect(page.getByTestId('card.your-answer')).toContainText('Memcached');
  expect(runtime.resolutionsFor(answered).map((resolution) => resolution.device?.label)).toEqual(['Work laptop']);
});
