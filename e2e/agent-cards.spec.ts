import { SECRET_ANSWER_MASK, type ApprovalInput } from '../lib/contracts';
import { expect, test } from './support/fixtures';
import { SIGN_IN_PAGE, widgetForm } from './support/payloads';

const COMMAND: ApprovalInput = {
  subject: 'command',
  command: "/bin/bash -lc 'touch /srv/outside.txt'",
  cwd: '/home/ada/src/shop',
  reason: 'Write outside-e1.txt outside the workspace?',
  choices: [
    { id: 'accept', label: 'Allow once', effect: 'allow' },
    {
      id: 'acceptForSession',
      label: 'Allow for this session',
      effect: 'allow-session',
      detail: 'Until this Codex session ends',
    },
    { id: 'decline', label: 'Deny', effect: 'deny' },
    { id: 'cancel', label: 'Stop the turn', effect: 'cancel', detail: 'Codex stops and waits for you' },
  ],
};

const FILES: ApprovalInput = {
  subject: 'file-change',
  choices: [
    { id: 'accept', label: 'Allow', effect: 'allow' },
    { id: 'decline', label: 'Deny', effect: 'deny' },
  ],
  changes: [
    {
      path: 'src/cache.ts',
      kind: 'update',
      diff: '@@ -1,2 +1,2 @@\n-const ttl = 60;\n+const ttl = 300;\n export { ttl };\n',
    },
    { path: 'src/new-file.ts', kind: 'add', diff: 'export const answer = 42;\n' },
  ],
};

test('[R18.3] a command approval shows what runs, where and why, and sends the choice taken', async ({
  app,
  runtime,
}) => {
  const { page } = app;
  const id = await runtime.approval(COMMAND);
  await app.openCard(id);
  await expect(page.getByTestId('card.approval-command')).toHaveText(COMMAND.command ?? '');
  await expect(page.getByTestId('card.approval-cwd')).toContainText('/home/ada/src/shop');
  await expect(page.getByTestId('card.approval-reason')).toHaveText(COMMAND.reason ?? '');
  await expect(page.getByTestId('card.approve')).toHaveText('Allow once');
  await expect(page.getByTestId('card.reject')).toHaveText('Deny');
  const session = page.locator('[data-testid="card.choice"][data-choice="acceptForSession"]');
  await expect(session).toContainText('Until this Codex session ends');
  await session.click();
  await expect(page.getByTestId('card.receipt')).toContainText('Allow for this session');
  await expect
    .poll(() => runtime.resolutionsFor(id)[0]?.response)
    .toEqual({
      action: 'accept',
      content: { choice: 'acceptForSession' },
    });
});

test('[R18.3] a file change lists its files first, each diff a tap away; Deny sends the reason, the menu stops the turn', async ({
  app,
  runtime,
}) => {
  const { page } = app;
  const id = await runtime.approval(FILES);
  await app.openCard(id);
  const files = page.getByTestId('card.approval-file');
  await expect(files).toHaveCount(2);
  await expect(page.getByTestId('card.diff')).toHaveCount(2);
  await expect(page.getByTestId('card.diff').first()).toBeHidden();
  await files.first().click();
  await expect(page.getByTestId('card.diff').first()).toContainText('+const ttl = 300;');
  await expect(page.locator('.diff__line--remove').first()).toHaveText('-const ttl = 60;\n');
  await page.getByTestId('card.reject').click();
  const dialog = page.getByTestId('card.reject-dialog');
  await dialog.getByRole('textbox').fill('Keep the TTL at a minute');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect
    .poll(() => runtime.resolutionsFor(id)[0]?.response)
    .toEqual({
      action: 'decline',
      message: 'Keep the TTL at a minute',
    });

  const stop = await runtime.approval(COMMAND);
  await app.openCard(stop);
  await page.getByTestId('card.menu').click();
  await page.getByTestId('card.cancel').click();
  await expect(page.getByTestId('card.cancel-dialog')).toContainText('Codex stops and waits for you');
  await page.getByTestId('card.cancel-dialog').getByRole('button', { name: /Yes/ }).click();
  await expect.poll(() => runtime.resolutionsFor(stop)[0]?.response).toEqual({ action: 'cancel' });
});

test('[R18.4] an MCP form: native inputs, checked before sending, values sent by field', async ({ app, runtime }) => {
  const { page } = app;
  const id = await runtime.form(
    widgetForm({ count: { minimum: 1, maximum: 9 }, note: { title: 'Note', maxLength: 40 } }),
  );
  await app.openCard(id);
  await expect(page.getByTestId('card.form-message')).toHaveText('Configure the widget');
  const field = (name: string) => page.locator(`[data-testid="card.form-field"][data-field="${name}"]`);
  const next = async () => {
    // A phone steps through the fields; a wide screen shows them all at once.
    if (await page.getByTestId('card.next').isVisible()) await page.getByTestId('card.next').click();
  };
  await field('color').getByText('Blue').click();
  await next();
  await field('count').locator('input').fill('12');
  await expect(field('count').locator('input')).toHaveAttribute('inputmode', 'numeric');
  await next();
  await field('notify').locator('input[role="switch"]').check();
  await next();
  await field('note').locator('input').fill('from the phone');
  await page.getByTestId('card.submit').click();
  await expect(page.getByTestId('card.form-problem')).toHaveText('"How many" must be at most 9');
  // Back to the number (on a phone it is two steps back).
  while (!(await field('count').isVisible())) await page.getByTestId('card.back').click();
  await field('count').locator('input').fill('3');
  while (await page.getByTestId('card.next').isVisible()) await page.getByTestId('card.next').click();
  await page.getByTestId('card.submit').click();
  await expect
    .poll(() => runtime.resolutionsFor(id)[0]?.response)
    .toEqual({
      action: 'accept',
      content: { values: { color: 'blue', count: 3, notify: true, note: 'from the phone' } },
    });
});

test('[R18.4] a page to open is a link that opens in the browser, then Done; Decline is in the menu', async ({
  app,
  runtime,
}) => {
  const { page } = app;
  const url = await runtime.form(SIGN_IN_PAGE);
  await app.openCard(url);
  const link = page.getByTestId('card.form-url');
  await expect(link).toHaveAttribute('href', 'https://widgets.example/authorize?state=1');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await page.getByTestId('card.submit').click();
  await expect.poll(() => runtime.resolutionsFor(url)[0]?.response).toEqual({ action: 'accept' });

  const declined = await runtime.form({ serverName: 'auth', message: 'Pick one', mode: 'form', fields: [] });
  await app.openCard(declined);
  await page.getByTestId('card.menu').click();
  await page.getByTestId('card.decline').click();
  await page.getByTestId('card.form-dialog').getByRole('button', { name: 'Decline' }).click();
  await expect.poll(() => runtime.resolutionsFor(declined)[0]?.response).toEqual({ action: 'decline' });
});

test('[R18.5] a secret answer is typed masked, reaches the agent, and shows as a mask everywhere after', async ({
  app,
  runtime,
  openDevice,
}) => {
  const { page } = app;
  const id = await runtime.agentQuestion({
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
  await app.openCard(id);
  const input = page.getByTestId('card.text-input');
  await expect(input).toHaveAttribute('type', 'password');
  await expect(page.getByTestId('card.add-note')).toHaveCount(0);
  await input.fill('s3cret-value');
  await page.getByTestId('card.submit').click();
  await expect
    .poll(() => runtime.resolutionsFor(id)[0]?.response)
    .toEqual({
      action: 'accept',
      content: { answers: { 'Paste the deploy token': 's3cret-value' } },
    });
  await expect(page.getByTestId('card.receipt')).toContainText(SECRET_ANSWER_MASK);
  await expect(page.getByTestId('card.receipt')).not.toContainText('s3cret');
  // Another device sees that it was answered, never what.
  const tablet = await openDevice();
  await tablet.page.goto(`${tablet.page.url().replace(/\/$/, '')}/history`);
  await expect(tablet.page.getByTestId('history.item').first()).toBeVisible();
  expect(await tablet.page.content()).not.toContain('s3cret');
  expect(
    await tablet.page.evaluate(() => JSON.stringify([...(window.__askaway?.state.host.interactions.values() ?? [])])),
  ).not.toContain('s3cret');
});
