import os from 'node:os';
import path from 'node:path';
import { type Page } from '@playwright/test';

/** Where screenshots for review go: set only when SCREENSHOTS=1 asks for them (SCREENSHOTS_DIR moves them). */
export const SCREENSHOTS_DIR = process.env.SCREENSHOTS
  ? (process.env.SCREENSHOTS_DIR ?? path.join(os.tmpdir(), 'askaway-screens'))
  : '';

/** The phone size review screenshots are taken at. */
export const PHONE_SCREEN = { width: 390, height: 844 };

/**
 * With SCREENSHOTS=1: the screen as `<prefix>-<theme>-<name>.png`, light and dark, at `size` when given (the
 * page's own size is put back after).
 */
export async function reviewShots(
  page: Page,
  name: string,
  prefix: string,
  size?: { width: number; height: number },
): Promise<void> {
  if (!SCREENSHOTS_DIR) return;
  const before = page.viewportSize();
  if (size) await page.setViewportSize(size);
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `${prefix}-${theme}-${name}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (size && before) await page.setViewportSize(before);
}
