import { type Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

// R9.14: the screens a first visit lands on are complete in the prerendered HTML, the inline script in <head>
// picks the one that applies before the first paint, and hydration leaves it where it was.

type Box = { x: number; y: number; width: number; height: number };

/**
 * Holds back every script file the page asks for (the inline ones in the HTML still run), so what is on screen
 * is the prerendered HTML as the first paint has it; `release` lets them through.
 */
async function holdScripts(page: Page): Promise<() => void> {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_next/static/**/*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** The boxes of the elements matching each selector, visible ones only, in document order. */
function boxes(page: Page, selectors: readonly string[]): Promise<Record<string, Box[]>> {
  return page.evaluate((list) => {
    const result: Record<string, Box[]> = {};
    for (const selector of list) {
      result[selector] = [...document.querySelectorAll(selector)]
        .map((element) => element.getBoundingClientRect())
        .filter((rect) => rect.width > 0 && rect.height > 0)
        .map(({ x, y, width, height }) => ({ x, y, width, height }));
    }
    return result;
  }, selectors);
}

/** Hydrated: the app's test hook is installed (an effect) and the first paint's other variants are gone. */
async function waitHydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () => window.__askaway !== undefined && document.querySelector('[data-boot-gate], .boot-paired') === null,
  );
}

/** The text a first-paint slot draws from the variable the inline script set (a pseudo-element's `content`). */
function slotText(page: Page, selector: string): Promise<string> {
  return page.locator(selector).evaluate((element) => getComputedStyle(element, '::before').content);
}

const EMPTY = ['[data-testid="inbox.empty"]', '.empty h2', '.empty__setup', '.empty__setup .button', '.banner', 'h1'];

test('[R9.14][R9.13] a device that never paired: the empty inbox and how to pair are in the HTML, and hydration leaves them there; a paired one never sees them', async ({
  page,
  host,
  request,
  browser,
}) => {
  const html = await (await request.get(`${host.url}/`)).text();
  expect(html).toContain('No questions waiting');
  expect(html).toContain('Connect an agent');

  const release = await holdScripts(page);
  await page.goto(`${host.url}/`, { waitUntil: 'domcontentloaded' });
  await expect(page.getByTestId('inbox.empty')).toBeVisible();
  await expect(page.getByTestId('inbox.empty').getByRole('link', { name: 'Pair' })).toBeVisible();
  await expect(page.locator('.banner')).toContainText('Open a pairing link');
  // Nothing to be connected to yet: no connection badge, the banner says how to pair.
  await expect(page.locator('.pill:visible')).toHaveCount(0);
  await expect(page.locator('.skeleton-list')).toBeHidden();
  const before = await boxes(page, EMPTY);
  expect(before['[data-testid="inbox.empty"]']).toHaveLength(1);

  release();
  await waitHydrated(page);
  await expect(page.getByTestId('connection.status')).toHaveCount(0);
  expect(await boxes(page, EMPTY)).toEqual(before);

  // The same HTML on a paired device: it waits for its inbox (the cached one, R9.13, or the live one).
  const context = await browser.newContext();
  const paired = await context.newPage();
  const device = await host.pairDevice('Phone');
  host.rememberSecret(device.credential);
  await paired.addInitScript((pairing) => localStorage.setItem('askaway.pairing', pairing), JSON.stringify(device));
  const releasePaired = await holdScripts(paired);
  await paired.goto(`${host.url}/`, { waitUntil: 'domcontentloaded' });
  await expect(paired.locator('.skeleton-list')).toBeVisible();
  await expect(paired.getByTestId('inbox.empty')).toBeHidden();
  await expect(paired.locator('.banner')).toBeHidden();
  await expect(paired.locator('.pill:visible')).toHaveText('Connecting…');
  releasePaired();
  await expect(paired.getByTestId('connection.status')).toHaveAttribute('data-status', 'connected');
  await expect(paired.getByTestId('connection.banner')).toHaveCount(0);
  await context.close();
});

const PAIR_FORM = [
  '[data-testid="pair.form"]',
  '.form__intro',
  '[data-testid="pair.device"]',
  '[data-testid="pair.submit"]',
];

test('[R9.14][R16.2] a pairing link: the form for it is in the HTML, naming the host, with no connection badge or tabs before pairing, and hydration leaves it there', async ({
  page,
  host,
}) => {
  const { link } = await host.mintPairingCode();
  const release = await holdScripts(page);
  await page.goto(link, { waitUntil: 'domcontentloaded' });
  const form = page.getByTestId('pair.form');
  await expect(form).toBeVisible();
  // A link brings its code: no fields for a host or a code.
  await expect(page.getByTestId('pair.host')).toBeHidden();
  await expect(page.getByTestId('pair.code')).toBeHidden();
  await expect(page.locator('.form__intro')).toContainText('Pairing with');
  expect(await slotText(page, '.form__intro .boot-pair-link .boot-text')).toBe(`"${new URL(host.url).host}"`);
  await expect(page.getByTestId('pair.submit')).toBeVisible();
  // Nothing to be connected to yet, and no tabs with nothing to show: the page is about pairing.
  await expect(page.locator('.pill:visible')).toHaveCount(0);
  await expect(page.locator('.tabbar:visible')).toHaveCount(0);
  const before = await boxes(page, PAIR_FORM);

  release();
  await expect(form).toHaveAttribute('data-mode', 'link');
  await waitHydrated(page);
  await expect(page.locator('.form__intro')).toHaveText(
    `Pairing with ${new URL(host.url).host}. Give this device a name you will recognise in the list of devices.`,
  );
  expect(new URL(page.url()).hash).toBe('');
  expect(await boxes(page, PAIR_FORM)).toEqual(before);
  await expect(page.getByTestId('connection.status')).toHaveCount(0);
  await expect(page.getByTestId('nav')).toHaveCount(0);
});

test('[R9.14][R16.2] a tap on Pair before the app has run is kept: the device pairs once it has', async ({
  page,
  host,
}) => {
  const { link } = await host.mintPairingCode();
  const release = await holdScripts(page);
  await page.goto(link, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('pair.submit').click();
  // Nothing happened yet, and the browser sent nothing: no validation bubble, no navigation.
  expect(new URL(page.url()).pathname).toBe('/pair');
  release();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByTestId('connection.status')).toHaveAttribute('data-status', 'connected');
  const credential = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('askaway.pairing') ?? '{}') as { credential?: string }).credential,
  );
  expect(credential).toMatch(/^aw_d_/);
  host.rememberSecret(credential ?? '');
});

test('[R9.14] /pair for a typed code, with JavaScript off: the whole form is in the HTML', async ({
  browser,
  host,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${host.url}/pair`);
  await expect(page.getByTestId('pair.host')).toBeVisible();
  await expect(page.getByTestId('pair.code')).toBeVisible();
  await expect(page.getByTestId('pair.device')).toBeVisible();
  await expect(page.getByTestId('pair.submit')).toBeVisible();
  await expect(page.locator('.form__intro')).toContainText('or type its address and code here');
  await context.close();
});

test('[R9.14][R16.5] a removed device: the pair-again screen, with its host named, is in the HTML and stays put', async ({
  page,
  host,
}) => {
  await page.addInitScript(() =>
    localStorage.setItem(
      'askaway.pairing',
      JSON.stringify({ removed: 'device-revoked', hostUrl: '', hostName: 'studio' }),
    ),
  );
  const release = await holdScripts(page);
  await page.goto(`${host.url}/history`, { waitUntil: 'domcontentloaded' });
  const screen = page.locator('.pair-again:visible');
  await expect(screen).toHaveCount(1);
  await expect(screen).toContainText('This device was removed from');
  expect(await slotText(page, '.pair-again:visible h1 .boot-text')).toBe('"studio"');
  await expect(page.getByTestId('nav')).toBeHidden();
  await expect(page.locator('.screen-header')).toBeHidden();
  const before = await boxes(page, ['.pair-again', '.pair-again h1', '.pair-again .button']);

  release();
  await expect(page.getByTestId('pair-again')).toHaveAttribute('data-kind', 'device-revoked');
  await waitHydrated(page);
  await expect(page.getByTestId('pair-again').locator('h1')).toHaveText('This device was removed from studio');
  await expect(page.getByTestId('nav')).toHaveCount(0);
  expect(await boxes(page, ['.pair-again', '.pair-again h1', '.pair-again .button'])).toEqual(before);
});
