import { expect, type Page } from '@playwright/test';
import { axeViolationsInSchemes } from './axe';

/** axe on what the screen shows now, in the light and the dark theme; leaves the page light. */
export async function expectAccessibleInBothThemes(page: Page, screen: string): Promise<void> {
  const violations = await axeViolationsInSchemes(page, ['light', 'dark']);
  expect(violations.map((violation) => `${screen} ${violation}`)).toEqual([]);
}
