import { type Page } from '@playwright/test';
import { axeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { joinMachine } from './support/machines';
import { singleQuestion } from './support/payloads';
import { populate, type PopulatedIds } from './support/scenario';

/** Colours are the same at every width: the phone checks both themes, the desktop its own layout in one. */
function skipSecondThemeOnDesktop(theme: 'light' | 'dark'): void {
  test.skip(test.info().project.name === 'desktop' && theme === 'light', 'the phone checks the light theme');
}

async function expectNoViolations(page: Page, screen: string): Promise<void> {
  // The sandboxed preview runs no script, so axe cannot be injected there; it is a picture.
  const violations = await axeViolations(page, ['[data-testid="card.preview-frame"]']);
  expect(violations.map((violation) => `${screen}: ${violation}`)).toEqual([]);
}

for (const theme of ['light', 'dark'] as const) {
  test(`[R9.1] axe finds no violations on the inbox and every kind of card (${theme})`, async ({
    app,
    host,
    runtime,
  }) => {
    test.setTimeout(60_000);
    skipSecondThemeOnDesktop(theme);
    const ids = await populate(host, runtime);
    const { page } = app;
    await app.setTheme(theme);
    await app.waitForInteraction(ids.previewId);

    await app.goto('/');
    await expect(app.inbox.items).toHaveCount(4);
    await expectNoViolations(page, 'inbox');

    const card = await app.openCard(ids.previewId);
    await card.option(0, 'Cards (Recommended)').click();
    await expect(page.getByTestId('card.preview-frame')).toBeVisible();
    await card.note(0, 'a note');
    await expectNoViolations(page, 'card with preview');

    await app.openCard(ids.multiId);
    await app.card().choose(0, 'MySQL');
    await app.card().other(2, 'jot');
    await app.card().toReview();
    await expectNoViolations(page, 'card multi / review');
    await page.getByTestId('card.menu').click();
    await page.getByTestId('card.decline').click();
    await expectNoViolations(page, 'decline dialog');
    await page.keyboard.press('Escape');

    await app.openCard(ids.planId);
    await expect(page.locator('.markdown h1')).toBeVisible();
    await expectNoViolations(page, 'plan');
    await app.openCard(ids.permissionId);
    await expectNoViolations(page, 'permission');
    await page.getByTestId('card.approve').click();
    await expect(page.getByTestId('card.receipt')).toBeVisible();
    await expectNoViolations(page, 'receipt');
  });

  // One test per screen, apart from the cards: several screens' scans in one test neared its timeout on a busy
  // CI machine (which ran about twice as slow as a quiet one).
  for (const route of ['/sessions', '/history', '/settings', '/pair']) {
    test(`[R9.1] axe finds no violations on ${route} (${theme})`, async ({ app, host, runtime }) => {
      skipSecondThemeOnDesktop(theme);
      const ids = await populate(host, runtime);
      const { page } = app;
      await app.setTheme(theme);
      await app.waitForInteraction(ids.previewId);
      await app.goto(route);
      await expect(page.getByTestId('connection.status')).toHaveAttribute('data-status', 'connected');
      if (route === '/sessions') await page.getByTestId('sessions.node-toggle').first().click();
      await expectNoViolations(page, route);
    });
  }
}

for (const theme of ['light', 'dark'] as const) {
  test(`[R9.1][R17.3] axe finds no violations on the machine screens (${theme})`, async ({ app, host, runtime }) => {
    test.setTimeout(60_000);
    skipSecondThemeOnDesktop(theme);
    const { page } = app;
    await app.setTheme(theme);
    const laptop = await joinMachine(host, 'laptop');
    try {
      await runtime.ask(singleQuestion, { requestId: 'req-hub', sessionId: 'session-hub' });
      await laptop.runtime.ask(singleQuestion, { requestId: 'req-1', sessionId: 'build-812' });
      await app.goto('/');
      await expect(page.getByTestId('inbox.machine')).toHaveCount(2);
      await expectNoViolations(page, 'inbox by machine');

      // The laptop drops: its question waits for it, on the inbox and on its card.
      laptop.runtime.close();
      const waiting = page.locator(`[data-testid="inbox.machine"][data-machine-id="${laptop.id}"]`);
      await expect(waiting.getByTestId('machine-state')).toHaveAttribute('data-presence', 'away');
      await expectNoViolations(page, 'inbox, machine gone');
      await app.openCard(`${laptop.id}:req-1`);
      await expectNoViolations(page, 'card waiting for its machine');

      await app.goto('/settings');
      await expect(page.getByTestId('settings.machine-row')).toHaveCount(2);
      await expectNoViolations(page, 'settings machines');
      await app.goto('/sessions');
      await expect(page.getByTestId('machine-filter')).toBeVisible();
      await expectNoViolations(page, 'sessions by machine');
    } finally {
      await laptop.remove();
    }
  });
}

// In two halves: nine pages in one test neared its timeout on a busy CI machine, and one test per page would
// pay for the host and its history nine times.
const NARROW_SCREENS: ReadonlyArray<readonly [string, (ids: PopulatedIds) => string[]]> = [
  [
    'the inbox and every kind of card',
    (ids) => ['/', ...[ids.previewId, ids.multiId, ids.permissionId, ids.planId].map((id) => `/card?id=${id}`)],
  ],
  ['Sessions, History, Settings and pairing', () => ['/sessions', '/history', '/settings', '/pair']],
];
for (const [screens, pathsOf] of NARROW_SCREENS) {
  test(`[R9.1] no horizontal scroll at 360 px: ${screens}`, async ({ app, host, runtime }, testInfo) => {
    test.skip(testInfo.project.name !== 'mobile', 'it sets its own 360 px viewport: the same page in every project');
    const ids = await populate(host, runtime);
    const { page } = app;
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of pathsOf(ids)) {
      await app.goto(path);
      await expect(page.getByTestId('connection.status').first()).toHaveAttribute('data-status', 'connected');
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
}

test('[R9.1] keyboard focus below the fold stops above the fixed tab bar', async ({ app }) => {
  const { page } = app;
  await app.goto('/settings');
  await expect(page.getByTestId('connection.status')).toHaveAttribute('data-status', 'connected');
  const tabbarTop = await page.getByTestId('nav').evaluate((nav) => nav.getBoundingClientRect().top);
  // Every control of the page in tab order, until focus reaches the tab bar itself.
  const hidden: string[] = [];
  for (let step = 0; step < 60; step += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      return {
        inTabbar: el.closest('[data-testid="nav"]') !== null,
        name: el.getAttribute('data-testid') ?? el.textContent?.trim().slice(0, 30) ?? el.tagName,
        bottom: el.getBoundingClientRect().bottom,
      };
    });
    if (!focused) continue;
    if (focused.inTabbar) break;
    if (focused.bottom > tabbarTop) hidden.push(`${focused.name} (bottom ${focused.bottom} > ${tabbarTop})`);
  }
  expect(hidden).toEqual([]);
});

for (const theme of ['light', 'dark'] as const) {
  test(`[R9.1][R18.3][R18.4] axe finds no violations on an agent's approval and an MCP form (${theme})`, async ({
    app,
    runtime,
  }) => {
    const { page } = app;
    await app.setTheme(theme);
    const approval = await runtime.approval({
      subject: 'file-change',
      reason: 'Raise the cache TTL.',
      choices: [
        { id: 'accept', label: 'Allow', effect: 'allow' },
        { id: 'acceptForSession', label: 'Allow for this session', effect: 'allow-session' },
        { id: 'decline', label: 'Deny', effect: 'deny' },
        { id: 'cancel', label: 'Stop the turn', effect: 'cancel' },
      ],
      changes: [{ path: 'src/ttl.ts', kind: 'update', diff: '@@ -1 +1 @@\n-60\n+300\n' }],
    });
    await app.openCard(approval);
    await expect(page.getByTestId('card.diff')).toBeVisible();
    await expectNoViolations(page, 'approval');
    const form = await runtime.form({
      serverName: 'widgets',
      message: 'Configure the widget',
      mode: 'form',
      fields: [
        { name: 'color', type: 'enum', multiple: true, required: true, options: [{ value: 'red' }, { value: 'blue' }] },
        { name: 'ok', title: 'Notify me', type: 'boolean', required: false },
      ],
    });
    await app.openCard(form);
    await expectNoViolations(page, 'form');
  });
}
