import { ownerCli } from './support/host';
import { expect, test } from './support/fixtures';

const SCREENSHOTS = process.env.ASKAWAY_NTFY_SCREENSHOTS;

test('[R12.15] Settings → Devices shows each ntfy topic beside the device that set it; a refused one says why', async ({
  app,
  host,
  openDevice,
}) => {
  const { page } = app;
  await app.goto('/settings');
  const field = page.getByTestId('settings.push-ntfy');
  const note = page.getByTestId('settings.push-note');

  // A topic on the LAN is refused from a device, with the host's reason and the way to set it.
  await field.fill('https://192.168.1.20/askaway');
  await page.getByTestId('settings.push-ntfy-save').click();
  await expect(note).toContainText('192.168.1.20 is a private address');
  await expect(note).toContainText('askaway ntfy set');
  await field.fill('http://ntfy.sh/askaway');
  await page.getByTestId('settings.push-ntfy-save').click();
  await expect(note).toHaveText('Enter an https:// URL.');

  await field.fill('https://ntfy.sh/askaway-phone-7f3c91d2');
  await page.getByTestId('settings.push-ntfy-save').click();
  await expect(note).toHaveText('Saved.');
  const mine = page.locator('[data-testid="settings.device-row"][data-current="true"]');
  await expect(mine.getByTestId('settings.device-ntfy')).toHaveText('ntfy: https://ntfy.sh/askaway-phone-7f3c91d2');

  // The owner's LAN topic, set on the computer, shows in Notifications.
  ownerCli(host, ['ntfy', 'set', 'http://192.168.1.20:8080/askaway-lan']);
  await page.reload();
  await expect(page.getByTestId('settings.push-ntfy-host')).toHaveText(
    'The host also publishes to http://192.168.1.20:8080/…, set on the computer (askaway ntfy).',
  );

  // Another device sees where the phone's topic goes, never the topic itself.
  const laptop = await openDevice({ viewport: { width: 1280, height: 800 } });
  await laptop.goto('/settings');
  const phoneRow = laptop.page.locator('[data-testid="settings.device-row"]:not([data-current])');
  await expect(phoneRow.getByTestId('settings.device-ntfy')).toHaveText('ntfy: https://ntfy.sh/…');
  await expect(
    laptop.page.locator('[data-testid="settings.device-row"][data-current="true"]').getByTestId('settings.device-ntfy'),
  ).toHaveCount(0);

  if (SCREENSHOTS) {
    for (const [who, view] of [
      ['phone', page],
      ['desktop', laptop.page],
    ] as const) {
      if (who === 'phone') await view.setViewportSize({ width: 390, height: 844 });
      for (const scheme of ['light', 'dark'] as const) {
        await view.emulateMedia({ colorScheme: scheme });
        await view.getByTestId('settings.devices').scrollIntoViewIfNeeded();
        await view.screenshot({ path: `${SCREENSHOTS}/devices-${who}-${scheme}.png` });
        await view.getByTestId('settings.push-ntfy').scrollIntoViewIfNeeded();
        await view.screenshot({ path: `${SCREENSHOTS}/notifications-${who}-${scheme}.png` });
      }
    }
  }

  // Revoked from the laptop: the phone's topic goes with it.
  await phoneRow.getByTestId('settings.revoke').click();
  await laptop.page.getByTestId('settings.revoke-dialog-confirm').click();
  await expect(phoneRow).toHaveCount(0);
  expect(JSON.parse(ownerCli(host, ['ntfy', '--json']))).toEqual({
    topics: [{ setBy: 'host', url: 'http://192.168.1.20:8080/askaway-lan', updatedAt: expect.any(String) }],
  });
});
