import { expect, test } from './support/fixtures';
import { singleQuestion } from './support/payloads';

test('[R6.1][R9.9] Settings → Auto-resolution: one switch and one wait for every device, and a new question counts down from it', async ({
  app,
  openDevice,
  runtime,
}) => {
  const { page } = app;
  await app.goto('/settings');
  const toggle = page.getByTestId('settings.auto-toggle');
  const wait = page.getByTestId('settings.auto-timeout');
  const explain = page.getByTestId('settings.auto-explain');
  await expect(toggle).not.toBeChecked();
  await expect(wait).toBeDisabled();
  await expect(explain).toHaveText('Off: the agent waits for you as long as it takes.');

  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(wait).toBeEnabled();
  await wait.selectOption({ label: '2 min' });
  await expect(explain).toContainText('When nobody answers within 2 min, the agent continues on its best judgment.');

  // Another device sees the host's choice at once; its change comes back here, and survives a reload.
  const laptop = await openDevice({ viewport: { width: 1280, height: 800 } });
  await laptop.goto('/settings');
  await expect(laptop.page.getByTestId('settings.auto-toggle')).toBeChecked();
  await expect(laptop.page.getByTestId('settings.auto-timeout')).toHaveValue('120000');
  await laptop.page.getByTestId('settings.auto-timeout').selectOption({ label: '5 min' });
  await expect(wait).toHaveValue('300000');
  await page.reload();
  await expect(page.getByTestId('settings.auto-timeout')).toHaveValue('300000');
  await expect(page.getByTestId('settings.save-failed')).toHaveCount(0);

  // What the setting is for: a question asked now continues on its own after the chosen wait.
  const requestId = await runtime.ask(singleQuestion);
  await app.openCard(requestId);
  await expect(page.getByTestId('countdown').first()).toContainText(/Agent continues on its own in 4:\d\d/);
});
