import { expect, type Page } from '@playwright/test';
import { axeViolations } from './axe';

/** axe on what the screen shows now, in the light and the dark theme; leaves the page light. */
export async function expectAccessibleInBothThemes(page: Page, screen: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const violations = await axeViolations(page);
    expect(violations.map((violation) => `${screen} (${colorScheme}): ${violation}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
