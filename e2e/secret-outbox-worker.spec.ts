import { type Page, type Worker } from '@playwright/test';
import { ANSWER_SYNC_TAG } from '../lib/client/sw/notification-answers';
import { SECRET_ANSWER_MASK } from '../lib/contracts/limits';
import { expect, test } from './support/fixtures';
import { AppPage } from './support/pages';
import { RemoteClient } from './support/remote-client';

const SECRET = 'tok-worker-7c31e0b2';
const QUESTION = 'Paste the release token';

/** Runs in the worker or a page: every record of the app's outbox. */
function outboxRecords(): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('askaway');
    open.onerror = () => reject(open.error ?? new Error('IndexedDB open failed'));
    open.onsuccess = () => {
      const db = open.result;
      const read = db.transaction('outbox', 'readonly').objectStore('outbox').getAll();
      read.onsuccess = () => {
        db.close();
        resolve(read.result as unknown[]);
      };
      read.onerror = () => reject(read.error ?? new Error('IndexedDB read failed'));
    };
  });
}

/** Runs in the page: the worker's record of this device, once the app has handed it over (R14.10). */
function workerHasDevice(): Promise<boolean> {
  return new Promise((resolve) => {
    const open = indexedDB.open('askaway');
    open.onerror = () => resolve(false);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('cache')) return resolve(false);
      const get = db.transaction('cache').objectStore('cache').get('worker-device');
      get.onsuccess = () => resolve(get.result !== undefined);
      get.onerror = () => resolve(false);
    };
  });
}

const activated = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none');

test.describe("[R12.14] a secret in the service worker's outbox", () => {
  test('[R12.14] queued offline, answered elsewhere, settled by the worker with no app open: the outbox keeps the mask only', async ({
    browser,
    host,
    runtime,
  }) => {
    // The app with its service worker (the suite blocks workers elsewhere).
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const registered = new Promise<string>((resolve) => {
        cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
          const mine = registrations.find((entry) => entry.scopeURL.startsWith(host.url) && !entry.isDeleted);
          if (mine) resolve(mine.registrationId);
        });
      });
      await cdp.send('ServiceWorker.enable');
      const app = new AppPage(page, host);
      await app.pair();
      const registrationId = await registered;
      await expect.poll(() => activated(page), { timeout: 30_000 }).toBe('activated');
      await expect.poll(() => page.evaluate(workerHasDevice), { timeout: 15_000 }).toBe(true);
      const worker: Worker | undefined = context.serviceWorkers()[0];
      if (!worker) throw new Error('no service worker');

      // Offline, the phone does not learn that another device answered meanwhile; the secret typed then is
      // queued whole, as it must be until the host has it (R9.8).
      const requestId = await runtime.agentQuestion({
        questions: [
          { question: QUESTION, header: 'Token', kind: 'text', options: [], multiSelect: false, secret: true },
        ],
      });
      const card = await app.openCard(requestId);
      await context.setOffline(true);
      await expect(page.getByTestId('connection.status')).toHaveAttribute('data-status', 'offline');
      const laptop = new RemoteClient(host.url, (await host.pairDevice('Work laptop')).credential);
      const laptopAck = await laptop.respond(requestId, {
        action: 'accept',
        content: { answers: { [QUESTION]: 'typed-on-the-laptop' } },
      });
      expect(laptopAck).toMatchObject({ ok: true, status: 'accepted' });
      laptop.close();
      await page.getByTestId('card.text-input').fill(SECRET);
      await card.submit();
      await expect(card.receipt).toHaveAttribute('data-state', 'queued');
      // Then in a pocket: no app runs to settle it.
      await page.goto('about:blank');
      await context.setOffline(false);

      // Back online, the worker sends what waits (its Background Sync) and learns the answer lost.
      await cdp.send('ServiceWorker.dispatchSyncEvent', {
        origin: host.url,
        registrationId,
        tag: ANSWER_SYNC_TAG,
        lastChance: false,
      });
      await expect
        .poll(async () => ((await worker.evaluate(outboxRecords)) as { state?: string }[]).map((entry) => entry.state))
        .toEqual(['lost']);
      const kept = await worker.evaluate(outboxRecords);
      expect(JSON.stringify(kept)).not.toContain(SECRET);
      // The receipt's entry stays, with the mask where the secret was (the card shows the answer was given).
      expect(kept).toMatchObject([
        { state: 'lost', response: { action: 'accept', content: { answers: { [QUESTION]: SECRET_ANSWER_MASK } } } },
      ]);
    } finally {
      await context.close();
    }
  });
});
