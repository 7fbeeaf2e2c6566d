import { type Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { RemoteClient } from './support/remote-client';

const SECRET = 'tok-offline-5e02c9a1';
const QUESTION = 'Paste the deploy token';

/** Every record of every IndexedDB database of the page, with local and session storage, as one text. */
function everythingStored(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const request = <T>(req: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
      });
    const records: unknown[] = [];
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await request(indexedDB.open(info.name));
      for (const name of db.objectStoreNames) {
        records.push(await request(db.transaction(name, 'readonly').objectStore(name).getAll()));
      }
      db.close();
    }
    return JSON.stringify([records, { ...localStorage }, { ...sessionStorage }]);
  });
}

test.describe('[R12.14] a secret on the phone', () => {
  test('[R12.14] typed offline, answered elsewhere meanwhile: once back online nothing of it is stored on the device', async ({
    app,
    runtime,
    context,
    host,
  }) => {
    const { page } = app;
    const requestId = await runtime.agentQuestion({
      questions: [{ question: QUESTION, header: 'Token', kind: 'text', options: [], multiSelect: false, secret: true }],
    });
    const card = await app.openCard(requestId);
    await context.setOffline(true);
    await expect(page.getByTestId('connection.status')).toHaveAttribute('data-status', 'offline');
    await page.getByTestId('card.text-input').fill(SECRET);
    // A draft of a secret lives in memory only: the page's storage never holds it.
    await expect(page.getByTestId('card.text-input')).toHaveValue(SECRET);
    expect(await everythingStored(page)).not.toContain(SECRET);
    await card.submit();
    await expect(card.receipt).toHaveAttribute('data-state', 'queued');
    // Until the host has it, the outbox must keep it whole (R9.8): that is what will be sent.
    expect(await everythingStored(page)).toContain(SECRET);

    const laptop = new RemoteClient(host.url, (await host.pairDevice('Work laptop')).credential);
    await laptop.respond(requestId, { action: 'accept', content: { answers: { [QUESTION]: 'typed-on-the-laptop' } } });
    laptop.close();
    await context.setOffline(false);
    await expect(card.receipt).toHaveAttribute('data-state', 'lost', { timeout: 15_000 });
    await expect.poll(() => everythingStored(page)).not.toContain(SECRET);

    // The receipt stays, with the mask, across a reload, and the secret stays gone.
    await page.reload();
    await expect(card.receipt).toHaveAttribute('data-state', 'lost');
    await expect(page.getByTestId('card.your-answer')).toBeVisible();
    expect(await everythingStored(page)).not.toContain(SECRET);
    expect(await page.content()).not.toContain(SECRET);
    expect(runtime.resolutionsFor(requestId)[0]?.response).toEqual({
      action: 'accept',
      content: { answers: { [QUESTION]: 'typed-on-the-laptop' } },
    });
  });
});
