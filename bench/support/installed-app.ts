import { type Page } from 'puppeteer-core';

/**
 * The app used before, as a repeat visit finds it: its service worker controls the page and the live
 * inbox of `pending` questions is saved on the device. `reloads`: visits after the worker activated
 * (more than one lets Chromium produce and consume a code cache first).
 */
export async function installApp(page: Page, url: string, pending: number, reloads = 1): Promise<void> {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(
    async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated',
    { timeout: 60_000 },
  );
  for (let visit = 0; visit < reloads; visit += 1) {
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(
      (count: number) =>
        navigator.serviceWorker.controller !== null &&
        window.__askaway?.state.host.hasSnapshot === true &&
        window.__askaway.pendingCount === count &&
        window.__askaway.cacheSavedAt !== null,
      { timeout: 60_000 },
      pending,
    );
  }
}
