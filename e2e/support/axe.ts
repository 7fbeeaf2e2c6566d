import axe, { type AxeResults, type ElementContext, type RunOptions } from 'axe-core';
import { type Page } from '@playwright/test';

/** What every accessibility check here holds the app to. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

interface AxeWindow {
  axe?: { run(context: ElementContext, options: RunOptions): Promise<AxeResults> };
}

/**
 * axe's violations on what the page shows now, one `rule — targets` line each (none: `[]`).
 *
 * axe-core runs in the page itself, injected once per document, and reports violations only. (AxeBuilder from
 * @axe-core/playwright sends its 560 KB script twice a scan, to the page and to a blank page it opens to merge
 * the frames' results, and describes every passing node: three quarters of a scan's time here.) Frames: the
 * only ones the app has are `exclude`d (the sandboxed preview runs no script, so axe cannot enter it; it is a
 * picture); any other frame fails the scan rather than go unchecked.
 */
export async function axeViolations(page: Page, exclude: readonly string[] = []): Promise<string[]> {
  await transitionsSettled(page);
  const injected = await page.evaluate(() => typeof (window as AxeWindow).axe?.run === 'function');
  if (!injected) await page.evaluate(axe.source);
  const result = await page.evaluate(
    async ({ exclude, tags }) => {
      const frames = [...document.querySelectorAll('iframe, frame')].filter(
        (frame) => !exclude.some((selector) => frame.matches(selector)),
      );
      if (frames.length > 0) return { unscanned: frames.map((frame) => frame.outerHTML.slice(0, 120)), violations: [] };
      const api = (window as AxeWindow).axe;
      if (!api) throw new Error('axe-core is not in the page');
      const results = await api.run(
        { exclude: exclude.map((selector) => [selector]) },
        { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], iframes: false },
      );
      return {
        unscanned: [],
        violations: results.violations.map(
          (violation) => `${violation.id} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
        ),
      };
    },
    { exclude, tags: TAGS },
  );
  if (result.unscanned.length > 0) throw new Error(`frames axe cannot scan from here: ${result.unscanned.join(', ')}`);
  return result.violations;
}

/**
 * axe's violations in each colour scheme on the same document, each line prefixed with its scheme: one load, one
 * injection, a scan per scheme. The page is left in the first scheme.
 */
export async function axeViolationsInSchemes(
  page: Page,
  schemes: readonly ColorScheme[],
  exclude: readonly string[] = [],
): Promise<string[]> {
  const lines: string[] = [];
  for (const colorScheme of schemes) {
    await page.emulateMedia({ colorScheme });
    lines.push(...(await axeViolations(page, exclude)).map((violation) => `(${colorScheme}) ${violation}`));
  }
  if (schemes[0] !== undefined) await page.emulateMedia({ colorScheme: schemes[0] });
  return lines;
}

export type ColorScheme = 'light' | 'dark';

/**
 * Waits for the page's finite animations and transitions to end (a switch of colour scheme starts some): axe reads
 * colours as they are painted, so a scan mid-transition would judge a colour the page is only passing through.
 * Endless ones (a spinner) and paused ones are not waited for; a cancelled one counts as ended.
 */
async function transitionsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter(
        (animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity,
      );
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });
}
