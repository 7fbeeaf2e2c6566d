import os from 'node:os';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { populate } from './support/scenario';

// Not a test of behaviour: renders every screen for review and for the README.
// Run with `SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts`.
test.skip(!process.env.SCREENSHOTS, 'set SCREENSHOTS=1 to render screenshots');

const OUT = process.env.SCREENSHOTS_DIR ?? path.join(os.tmpdir(), 'askaway-screens');
const README = path.resolve(import.meta.dirname, '..', 'docs', 'screenshots');
// `SCREENSHOTS_VIEWPORT=390x844` renders at another size (README images keep the projects' own).
const VIEWPORT = /^(\d+)x(\d+)$/.exec(process.env.SCREENSHOTS_VIEWPORT ?? '');
if (VIEWPORT) test.use({ viewport: { width: Number(VIEWPORT[1]), height: Number(VIEWPORT[2]) } });

for (const theme of ['light', 'dark'] as const) {
  test(`screens (${theme})`, async ({ app, host, runtime }, testInfo) => {
    test.setTimeout(90_000);
    const ids = await populate(host, runtime);
    const { page } = app;
    await app.setTheme(theme);
    const shot = async (name: string, fullPage = false) => {
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: path.join(OUT, `${testInfo.project.name}-${theme}-${name}.png`), fullPage });
      if (
        !VIEWPORT &&
        theme === 'light' &&
        testInfo.project.name === 'mobile' &&
        ['inbox', 'card-preview', 'history', 'settings'].includes(name)
      ) {
        await page.screenshot({ path: path.join(README, `${name}.png`) });
      }
    };
    await app.waitForInteraction(ids.previewId);
    await app.goto('/');
    await expect(app.inbox.items).toHaveCount(4);
    await shot('inbox');
    await app.openCard(ids.previewId);
    await app.card().option(0, 'Cards (Recommended)').click();
    await expect(page.getByTestId('card.preview-frame')).toBeVisible();
    await shot('card-preview');
    await shot('card-preview-full', true);
    await app.openCard(ids.multiId);
    await app.card().choose(0, 'Postgres (Recommended)');
    await shot('card-multi');
    await app.card().choose(1, 'Search');
    await app.card().other(2, 'jot');
    await app.card().toReview();
    await shot('card-review');
    await app.openCard(ids.planId);
    await expect(page.locator('.markdown h1')).toBeVisible();
    await shot('card-plan');
    await app.openCard(ids.permissionId);
    await shot('card-permission');
    await app.goto('/sessions');
    await page.getByTestId('sessions.node-toggle').first().click();
    await shot('sessions');
    await app.goto('/history');
    await expect(page.getByTestId('history.item')).toHaveCount(6);
    await shot('history');
    await app.goto('/settings');
    await expect(page.getByTestId('settings.auto-toggle')).toBeChecked();
    await shot('settings');
    await shot('settings-full', true);
    await page.getByTestId('settings.devices').scrollIntoViewIfNeeded();
    await shot('settings-devices');
    await page
      .locator('[data-testid="settings.device-row"]:not([data-current]) [data-testid="settings.revoke"]')
      .click();
    await expect(page.getByTestId('settings.revoke-dialog')).toBeVisible();
    await shot('settings-revoke');
    await page.keyboard.press('Escape');
    await app.goto('/pair');
    await shot('pair');

    // As a device that is not paired yet: the link's form, then the same link once used.
    await page.evaluate(() => localStorage.removeItem('askaway.pairing'));
    const { link } = await host.mintPairingCode();
    // A fresh document: from /pair, a link that differs only in its fragment would not reload the app.
    await page.goto('about:blank');
    await page.goto(link);
    await expect(page.getByTestId('pair.form')).toHaveAttribute('data-mode', 'link');
    await shot('pair-link');
    await page.getByTestId('pair.submit').click();
    await app.waitConnected();
    host.rememberSecret((await app.storedPairing())?.credential ?? '');
    await page.goto(link);
    await page.getByTestId('pair.submit').click();
    await expect(page.getByTestId('pair.invalid')).toBeVisible();
    await shot('pair-invalid');

    // Revoked, and still holding the old shared token (R16.5, R16.7).
    for (const [name, record] of [
      ['removed', { removed: 'device-revoked', hostUrl: '', hostName: os.hostname() }],
      ['legacy', { hostUrl: '', token: 'old-shared-token' }],
    ] as const) {
      await page.evaluate((value) => localStorage.setItem('askaway.pairing', JSON.stringify(value)), record);
      await page.goto(`${host.url}/`);
      await expect(page.getByTestId('pair-again')).toBeVisible();
      await shot(name);
    }
  });
}
