import os from 'node:os';
import path from 'node:path';
import { type Page, type TestInfo } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { joinMachine, type JoinedMachine } from './support/machines';
import { markdownPreviewQuestion, previewQuestion, singleQuestion, threeQuestions } from './support/payloads';
import { populate } from './support/scenario';

// Not a test of behaviour: renders every screen for review and for the README.
// Run with `SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts`.
test.skip(!process.env.SCREENSHOTS, 'set SCREENSHOTS=1 to render screenshots');

const OUT = process.env.SCREENSHOTS_DIR ?? path.join(os.tmpdir(), 'askaway-screens');
const README = path.resolve(import.meta.dirname, '..', 'docs', 'screenshots');
// `SCREENSHOTS_VIEWPORT=390x844` renders at another size (README images keep the projects' own).
const VIEWPORT = /^(\d+)x(\d+)$/.exec(process.env.SCREENSHOTS_VIEWPORT ?? '');
if (VIEWPORT) test.use({ viewport: { width: Number(VIEWPORT[1]), height: Number(VIEWPORT[2]) } });

const README_SHOTS = ['inbox', 'card-preview', 'history', 'settings', 'machines-inbox', 'machines-settings'];

/** Saves a screenshot for review, and the README's own images (phone, light). */
function shooter(page: Page, testInfo: TestInfo, theme: 'light' | 'dark') {
  return async (name: string, fullPage = false) => {
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.join(OUT, `${testInfo.project.name}-${theme}-${name}.png`), fullPage });
    if (!VIEWPORT && theme === 'light' && testInfo.project.name === 'mobile' && README_SHOTS.includes(name)) {
      await page.screenshot({ path: path.join(README, `${name}.png`) });
    }
  };
}

for (const theme of ['light', 'dark'] as const) {
  test(`screens (${theme})`, async ({ app, host, runtime }, testInfo) => {
    test.setTimeout(90_000);
    const ids = await populate(host, runtime);
    const { page } = app;
    await app.setTheme(theme);
    const shot = shooter(page, testInfo, theme);
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
    await page.getByTestId('settings.push-buttons').scrollIntoViewIfNeeded();
    await shot('settings-notifications');
    await page.getByTestId('settings.devices').scrollIntoViewIfNeeded();
    await shot('settings-devices');
    await page
      .locator('[data-testid="settings.device-row"]:not([data-current]) [data-testid="settings.revoke"]')
      .click();
    await expect(page.getByTestId('settings.revoke-dialog')).toBeVisible();
    await shot('settings-revoke');
    await page.keyboard.press('Escape');
    // Text previews as agents write them (R9.15): fenced code, then a diagram wider than the box, then a table.
    // After the README's shots, whose badges count the questions waiting.
    const markdownId = await runtime.ask(markdownPreviewQuestion);
    await app.openCard(markdownId);
    await app.card().option(0, 'Versioned prefix (Recommended)').click();
    await expect(page.getByTestId('card.preview-text').locator('pre code')).toBeVisible();
    await shot('card-markdown');
    await app.card().option(0, 'Hash of query').click();
    await expect(page.getByTestId('card.preview-text').locator('pre.md__art')).toBeVisible();
    await shot('card-diagram');
    await app.card().option(0, 'Per-table namespace').click();
    await expect(page.getByTestId('card.preview-text').locator('table')).toBeVisible();
    await shot('card-table');
    await app.goto('/pair');
    await shot('pair');

    // As a device that is not paired yet: the link's form, then the same link once used.
    await page.evaluate(() => localStorage.removeItem('askaway.pairing'));
    await app.goto('/');
    await expect(page.locator('.banner')).toContainText('Open a pairing link');
    await expect(page.getByTestId('connection.status')).toHaveCount(0);
    await shot('inbox-unpaired');
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

// One hub ("studio"), three joined machines, one of them gone with a question still waiting (R17).
test.describe('machines', () => {
  test.use({ hostArgs: ['--name', 'studio'] });
  for (const theme of ['light', 'dark'] as const) {
    test(`machine screens (${theme})`, async ({ app, host, runtime }, testInfo) => {
      test.setTimeout(90_000);
      const { page } = app;
      await app.setTheme(theme);
      const shot = shooter(page, testInfo, theme);
      const machines: JoinedMachine[] = [];
      try {
        for (const name of ['laptop', 'desktop', 'ci-runner']) machines.push(await joinMachine(host, name));
        const [laptop, desktop, ci] = machines;
        if (!laptop || !desktop || !ci) throw new Error('three machines joined');
        await runtime.ask(singleQuestion, { sessionId: 'sess-5d20aa', context: { cwd: '/home/ada/src/notes' } });
        const shop = { cwd: '/home/ada/src/shop', projectName: 'shop' };
        const answered = await laptop.runtime.ask(singleQuestion, { sessionId: 'sess-1', context: shop });
        await laptop.runtime.ask(threeQuestions, { sessionId: 'sess-1', context: shop });
        await desktop.runtime.ask(previewQuestion, { sessionId: 'sess-1', context: { cwd: '/srv/api' } });
        const waiting = await ci.runtime.ask(singleQuestion, { sessionId: 'build-812', context: { cwd: '/ci/shop' } });
        await app.waitForInteraction(`${ci.id}:${waiting}`);
        // The CI runner's agent goes away; its question stays, waiting for it.
        ci.runtime.close();
        await app.goto('/');
        await expect(app.inbox.item(`${ci.id}:${waiting}`).getByTestId('inbox.waiting-for-machine')).toBeVisible();
        await expect(app.inbox.items).toHaveCount(5);
        await shot('machines-inbox');
        await shot('machines-inbox-full', true);

        const card = await app.openCard(`${ci.id}:${waiting}`);
        await expect(page.getByTestId('card.waiting-for-machine')).toBeVisible();
        await shot('machines-card-waiting');
        await card.choose(0, 'SQLite');
        await card.submit();
        await expect(card.receipt).toHaveAttribute('data-state', 'waiting-for-machine');
        await shot('machines-receipt-waiting');

        const other = await app.openCard(`${laptop.id}:${answered}`);
        await other.choose(0, 'Redis (Recommended)');
        await other.submit();
        await expect(page.getByTestId('card.receipt-applied')).toBeVisible();
        await shot('machines-receipt');

        await app.goto('/sessions');
        await expect(page.getByTestId('sessions.session')).toHaveCount(4);
        await shot('machines-sessions');
        await app.goto('/history');
        await expect(page.getByTestId('history.item')).toHaveCount(2);
        await shot('machines-history');
        await page.getByTestId('machine-filter').getByRole('radio', { name: 'laptop' }).check();
        await expect(page.getByTestId('history.item')).toHaveCount(1);
        await shot('machines-history-filtered');
        await page.getByTestId('machine-filter').getByRole('radio', { name: 'All machines' }).check();

        await app.goto('/settings');
        const list = page.getByTestId('settings.machines');
        await expect(list.getByTestId('settings.machine-row')).toHaveCount(4);
        await list.scrollIntoViewIfNeeded();
        await shot('machines-settings');
        await list.getByRole('button', { name: 'Revoke desktop' }).click();
        await expect(page.getByTestId('settings.machine-revoke-dialog')).toBeVisible();
        await shot('machines-revoke');
        await page.keyboard.press('Escape');
      } finally {
        for (const machine of machines) await machine.remove();
      }
    });
  }
});

test.describe('instant open (R9.13)', () => {
  test.use({ serviceWorkers: 'allow' });
  for (const theme of ['light', 'dark'] as const) {
    test(`the cached inbox, then the live one (${theme})`, async ({ app, host, runtime }, testInfo) => {
      test.setTimeout(90_000);
      const mobile = testInfo.project.name === 'mobile';
      const { page } = app;
      await page.setViewportSize(mobile ? { width: 390, height: 844 } : { width: 1280, height: 800 });
      await app.setTheme(theme);
      const ids = await populate(host, runtime);
      await app.waitForInteraction(ids.previewId);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await app.goto('/');
      await expect(app.inbox.items).toHaveCount(4);
      await page.waitForFunction(() => window.__askaway?.cacheSavedAt !== null);
      const shot = async (name: string) => {
        await page.evaluate(() => document.fonts.ready);
        await page.screenshot({ path: path.join(OUT, `${testInfo.project.name}-${theme}-${name}.png`) });
      };
      await page.goto('about:blank');
      await host.halt();
      await app.goto('/');
      await expect(page.getByTestId('connection.status')).toHaveText(/^Last seen .* · connecting…$/);
      await expect(app.inbox.items).toHaveCount(4);
      await shot('inbox-cached');
      await app.goto(`/card?id=${encodeURIComponent(ids.multiId)}`);
      await expect(app.card().root).toBeVisible();
      await shot('card-cached');
      await app.goto('/');
      await host.resume();
      await expect(page.getByTestId('connection.status')).toHaveAttribute('data-live', 'true', { timeout: 15_000 });
      // The agents reconnect to the restarted host a moment later; until then their questions wait for them (R17.6).
      await expect(page.getByTestId('inbox.waiting-for-machine')).toHaveCount(0, { timeout: 15_000 });
      await shot('inbox-live');
    });
  }
});

for (const theme of ['light', 'dark'] as const) {
  test(`agents' cards (${theme})`, async ({ app, runtime }, testInfo) => {
    const { page } = app;
    await app.setTheme(theme);
    const shot = shooter(page, testInfo, theme);
    const command = await runtime.approval(
      {
        subject: 'command',
        command: "/bin/bash -lc 'npm run migrate -- --to latest'",
        cwd: '/home/ada/src/shop',
        reason: 'Apply the pending migrations to the local database?',
        choices: [
          { id: 'accept', label: 'Allow once', effect: 'allow' },
          {
            id: 'acceptForSession',
            label: 'Allow for this session',
            effect: 'allow-session',
            detail: 'Until this Codex session ends',
          },
          { id: 'decline', label: 'Deny', effect: 'deny' },
          { id: 'cancel', label: 'Stop the turn', effect: 'cancel' },
        ],
      },
      { context: { cwd: '/home/ada/src/shop', projectName: 'shop' } },
    );
    await app.openCard(command);
    await shot('card-approval-command');
    const files = await runtime.approval({
      subject: 'file-change',
      reason: 'Raise the cache TTL and add the helper.',
      choices: [
        { id: 'accept', label: 'Allow', effect: 'allow' },
        { id: 'acceptForSession', label: 'Allow these files for the session', effect: 'allow-session' },
        { id: 'decline', label: 'Deny', effect: 'deny' },
      ],
      changes: [
        {
          path: 'src/cache/ttl.ts',
          kind: 'update',
          diff: '@@ -1,4 +1,4 @@\n import { seconds } from "./units";\n-export const ttl = seconds(60);\n+export const ttl = seconds(300);\n export const staleWhileRevalidate = seconds(30);\n',
        },
        {
          path: 'src/cache/helper.ts',
          kind: 'add',
          diff: 'export function key(id: string) {\n  return `product:${id}`;\n}\n',
        },
      ],
    });
    await app.openCard(files);
    await page.getByTestId('card.approval-file').first().click();
    await shot('card-approval-files');
    const form = await runtime.form({
      serverName: 'widgets',
      message: 'Configure the widget',
      mode: 'form',
      fields: [
        {
          name: 'color',
          title: 'Color',
          description: 'The widget’s main color',
          type: 'enum',
          multiple: false,
          required: true,
          options: [
            { value: 'red', label: 'Red' },
            { value: 'blue', label: 'Blue' },
            { value: 'green', label: 'Green' },
          ],
        },
        { name: 'count', title: 'How many', type: 'integer', required: true, minimum: 1, maximum: 9, default: 3 },
        { name: 'notify', title: 'Notify me when it ships', type: 'boolean', required: false },
      ],
    });
    await app.openCard(form);
    await shot('card-form');
    const secret = await runtime.agentQuestion({
      questions: [
        {
          question: 'Paste the deploy token',
          header: 'Token',
          kind: 'text',
          options: [],
          multiSelect: false,
          secret: true,
        },
      ],
    });
    await app.openCard(secret);
    await page.getByTestId('card.text-input').fill('s3cret');
    await shot('card-secret');
    await expect(page.getByTestId('card')).toBeVisible();
    // Codex's Default-mode question: Codex goes on by itself at its own deadline (R18.11).
    const quick = await runtime.agentQuestion(
      {
        questions: [
          {
            question: 'Which size should the thumbnails be?',
            header: 'Size',
            multiSelect: false,
            options: [
              { label: 'Small (Recommended)', description: '160 px, fast on phones' },
              { label: 'Large', description: '480 px' },
            ],
          },
        ],
      },
      {
        context: {
          agentMessage:
            'Quick one.\n\nCodex is not waiting for this answer: about 2 minutes after it asked, it goes on without one.',
          agentDeadlineAt: new Date(Date.now() + 100_000).toISOString(),
        },
      },
    );
    await app.openCard(quick);
    await expect(page.getByTestId('card.agent-deadline')).toContainText('Codex goes on without your answer in 1:');
    await shot('card-agent-deadline');
    await runtime.withdraw(quick, 'Codex went on without an answer');

    // A second agent: chips beside each prompt and a filter on Sessions and History (R18.1).
    await runtime.ask(singleQuestion, {
      sessionId: 'claude-session',
      agent: { kind: 'claude-code', name: 'Claude Code', version: '2.1.332' },
      context: { cwd: '/home/ada/src/shop', projectName: 'shop' },
    });
    await app.goto('/');
    await expect(page.getByTestId('agent-chip')).toHaveCount(5);
    await shot('agents-inbox');
    await runtime.withdraw(form, 'The server closed the request');
    await app.goto('/sessions');
    await expect(page.getByTestId('agent-filter')).toBeVisible();
    await shot('agents-sessions');
    await app.goto('/history');
    for (const requestId of [form, quick])
      await expect(page.locator(`[data-testid="history.item"][data-request-id="${requestId}"]`)).toBeVisible();
    await shot('agents-history');

    // Claude Code's question, also open in its terminal (R11.10), then answered there first (R18.6).
    const inTerminal = await runtime.ask(singleQuestion, {
      sessionId: 'claude-terminal',
      agent: { kind: 'claude-code', name: 'Claude Code', version: '2.1.332' },
      context: { cwd: '/home/ada/src/shop', projectName: 'shop', openInTerminal: true },
    });
    await app.openCard(inTerminal);
    await expect(page.getByTestId('card.open-in-terminal')).toBeVisible();
    await shot('card-open-in-terminal');
    const question = singleQuestion.questions[0]?.question ?? '';
    await runtime.withdraw(inTerminal, 'Answered in the terminal', {
      response: { action: 'accept', content: { answers: { [question]: 'SQLite' } } },
    });
    await expect(page.getByTestId('card.receipt')).toHaveAttribute('data-state', 'terminal');
    await shot('card-answered-in-terminal');
    await app.goto('/history');
    await expect(page.getByTestId('history.item')).toHaveCount(3);
    await shot('history-answered-in-terminal');
  });
}
