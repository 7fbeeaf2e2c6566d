import { expect, test } from './support/fixtures';
import { SIGN_IN_PAGE, widgetForm } from './support/payloads';

const WIDGET = widgetForm({ color: { default: 'blue' }, count: { default: 3 }, notify: { default: true } });

test("[R18.4] a filled form's receipt says what was sent, field by field, not Allowed; History says Answered", async ({
  app,
  runtime,
}) => {
  const { page } = app;
  const id = await runtime.form(WIDGET);
  const card = await app.openCard(id);
  // A phone steps through the fields; a wide screen shows them all at once.
  while (await page.getByTestId('card.next').isVisible()) await page.getByTestId('card.next').click();
  await page.getByTestId('card.submit').click();
  await expect
    .poll(() => runtime.resolutionsFor(id)[0]?.response)
    .toEqual({ action: 'accept', content: { values: { color: 'blue', count: 3, notify: true } } });

  const sent = card.receipt.getByTestId('form-values.item');
  await expect(sent).toHaveCount(4);
  await expect(sent.nth(0)).toHaveText(/^Color\s*Blue$/);
  await expect(sent.nth(1)).toHaveText(/^How many\s*3$/);
  await expect(sent.nth(2)).toHaveText(/^Notify me\s*Yes$/);
  // A field left empty by its name (it has no title), said as skipped.
  await expect(sent.nth(3)).toHaveText(/^note\s*skipped$/);
  await expect(card.receipt).not.toContainText('Allowed');

  await app.goto('/history');
  const item = page.locator(`[data-testid="history.item"][data-request-id="${id}"]`);
  await expect(item.getByTestId('history.summary')).toHaveText(/^Answered/);
  await expect(item).not.toContainText('Allowed');
});

test('[R18.4] a page opened and Done says Done, a form without fields says Sent', async ({ app, runtime }) => {
  const { page } = app;
  const url = await runtime.form(SIGN_IN_PAGE);
  const card = await app.openCard(url);
  await page.getByTestId('card.submit').click();
  await expect(card.receipt.getByTestId('response.form')).toHaveText('Done');

  const empty = await runtime.form({ serverName: 'auth', message: 'Carry on?', mode: 'form', fields: [] });
  const next = await app.openCard(empty);
  await page.getByTestId('card.submit').click();
  await expect(next.receipt.getByTestId('response.form')).toHaveText('Sent');
  await expect(next.receipt).not.toContainText('Allowed');
});
