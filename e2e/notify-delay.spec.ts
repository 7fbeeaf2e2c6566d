import { expect, test } from './support/fixtures';

test('[R14.7] "Notify my phone" is one choice in Settings, explained in a line and shared by every device of the host', async ({
  app,
  openDevice,
}) => {
  const { page } = app;
  await app.goto('/settings');
  const delay = page.getByTestId('settings.push-delay');
  await expect(delay).toHaveValue('0');
  await expect(page.getByTestId('settings.push-delay-explain')).toHaveText('Every new question buzzes as it arrives.');
  await expect(delay.locator('option')).toHaveText([
    'At once',
    'If still waiting after 30 s',
    'If still waiting after 1 min',
    'If still waiting after 5 min',
  ]);

  await delay.selectOption({ label: 'If still waiting after 30 s' });
  await expect(page.getByTestId('settings.push-delay-explain')).toHaveText(
    'Answer at the desk within 30 s and no phone buzzes: only questions still waiting then are sent. Shared by every device.',
  );

  // Another device sees the host's choice, and it survives a reload.
  const laptop = await openDevice({ viewport: { width: 1280, height: 800 } });
  await laptop.goto('/settings');
  await expect(laptop.page.getByTestId('settings.push-delay')).toHaveValue('30000');
  await laptop.page.getByTestId('settings.push-delay').selectOption({ label: 'If still waiting after 5 min' });
  await expect(delay).toHaveValue('300000');
  await page.reload();
  await expect(page.getByTestId('settings.push-delay')).toHaveValue('300000');
});
