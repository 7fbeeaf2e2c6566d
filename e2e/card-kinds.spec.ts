import { type Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { singleQuestion } from './support/payloads';

// R13.4: every kind of card is its own chunk, loaded when one is opened (or about to be), not with the card
// route's first screen; the wait shows a skeleton only when it is real.

/** The chunks a page's HTML loads up front: its loader's list (scripts/build-pwa/paint-first.mjs). */
async function firstScreenChunks(page: Page, url: string): Promise<Set<string>> {
  const html = await (await page.request.get(url)).text();
  const list = /\(function\(\)\{var u=(\[[^\]]*\])/.exec(html)?.[1];
  if (!list) throw new Error(`no chunk loader in ${url}`);
  return new Set((JSON.parse(list) as string[]).map((path) => new URL(path, url).pathname));
}

/** Holds every chunk outside `firstScreen` until released; lists what it held. */
async function holdOtherChunks(page: Page, firstScreen: Set<string>) {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: string[] = [];
  await page.route('**/_next/static/chunks/*.js', async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (!firstScreen.has(path)) {
      held.push(path);
      await released;
    }
    await route.continue();
  });
  return { held, release };
}

test('[R13.4][R9.13] a card comes with its kind: the card route paints without it, a skeleton shows only while it is really missing', async ({
  app,
  runtime,
}) => {
  const { page } = app;
  const requestId = await runtime.ask(singleQuestion);
  await app.goto('/');
  await expect(app.inbox.item(requestId)).toBeVisible();
  // Saved on the device: the card route knows the question before anything but its first screen runs.
  await page.waitForFunction(() => window.__askaway?.cacheSavedAt !== null);

  const url = `${new URL(page.url()).origin}/card?id=${encodeURIComponent(requestId)}`;
  const { held, release } = await holdOtherChunks(page, await firstScreenChunks(page, url));
  // Not "load": the held chunks keep the page from loading.
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  const loading = page.getByTestId('card.loading');
  await expect(loading).toBeVisible();
  // The question is known (the cached inbox), its card's code is not here yet: after a real wait, a skeleton.
  await expect(loading.locator('.skeleton')).toBeVisible();
  await expect(page.getByTestId('card')).toHaveCount(0);
  expect(held.length).toBeGreaterThan(0);

  release();
  await expect(app.card().root).toHaveAttribute('data-request-id', requestId);
  await expect(loading).toHaveCount(0);
  await app.card().option(0, 'SQLite').click();
});
