import { expect, test } from './support/fixtures';
import { singleQuestion } from './support/payloads';

test('[R9.12] switching the language in Settings changes every screen at once, and back', async ({ app, runtime }) => {
  await runtime.ask(singleQuestion);
  const { page } = app;
  await app.goto('/settings');
  await page.getByText('中文').click();
  await expect(page.getByTestId('nav.inbox')).toContainText('收件箱');
  await expect(page.getByTestId('connection.status')).toContainText('已连接');
  await page.getByTestId('nav.inbox').click();
  await expect(page.getByTestId('inbox.item').first()).toContainText('1 个问题');

  await page.getByTestId('nav.settings').click();
  await page.getByText('English').click();
  await expect(page.getByTestId('nav.inbox')).toContainText('Inbox');
  await page.getByTestId('nav.inbox').click();
  await expect(page.getByTestId('inbox.item').first()).toContainText('1 question');
});
