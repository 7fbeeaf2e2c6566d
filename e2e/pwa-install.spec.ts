import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, expect, type Page, test } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { startTestHost, type TestHost } from './support/host';
import { AppPage } from './support/pages';

// Platform checks (R9.1, R12.2) against the real host serving the real build. They need a
// persistent Chromium profile (ordinary contexts always report `in-incognito`), so they open
// their own browser instead of the project's page, and run once, in the first project.

const TOKEN = 'pwa-install-e2e-token';
const ROUTES = ['/', '/history', '/sessions', '/settings', '/pair'];
const ONE_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

async function openBrowser(): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'askaway-pwa-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    serviceWorkers: 'allow',
  });
  // Collects every CSP violation from the first byte of every document.
  await context.addInitScript(() => {
    const seen: string[] = [];
    Object.defineProperty(window, '__cspViolations', { value: seen });
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(
        `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

const cspViolations = (page: Page) =>
  page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);

/** React marks the nodes it hydrated; none of them exist if a blocked script stopped hydration. */
const isHydrated = (page: Page) =>
  page.evaluate(() =>
    Object.keys(document.querySelector('#main') ?? document.body).some((key) => key.startsWith('__reactFiber$')),
  );

/**
 * The worker installs only after the app loaded, and precaches every route and chunk first: beside the rest of the
 * suite on a 2-core CI machine that took more than 15 s once, so it gets 30 s (and its tests are marked slow).
 */
async function waitForActiveWorker(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none'), {
      message: 'an activated service worker controls the page (is useServiceWorker() mounted?)',
      timeout: 30_000,
    })
    .toBe('activated');
}

test.describe('PWA platform', () => {
  let host: TestHost;

  test.beforeEach(async ({}, testInfo) => {
    test.skip(
      testInfo.project.name !== testInfo.config.projects[0]?.name,
      'browser-independent platform checks run once',
    );
    host = await startTestHost(TOKEN, { privateStaticCopy: true });
  });
  test.afterEach(async () => {
    try {
      host?.assertNoSecretsInOutput();
    } finally {
      await host?.stop();
    }
  });

  test('[R9.1] Chromium finds the app installable', async () => {
    const browser = await openBrowser();
    try {
      await browser.page.goto(`${host.url}/`);
      const cdp = await browser.context.newCDPSession(browser.page);
      await expect
        .poll(
          async () =>
            (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors.map((error) => error.errorId),
          {
            message: 'installability errors',
          },
        )
        .toEqual([]);
      const manifest = (await (await browser.page.request.get(`${host.url}/manifest.webmanifest`)).json()) as {
        display: string;
        icons: { src: string; purpose?: string }[];
      };
      expect(manifest.display).toBe('standalone');
      expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
      for (const icon of manifest.icons)
        expect((await browser.page.request.get(`${host.url}${icon.src}`)).status(), icon.src).toBe(200);
    } finally {
      await browser.close();
    }
  });

  test('[R9.1] a service worker controls the page and the shell works offline', async () => {
    test.slow();
    const browser = await openBrowser();
    const { context, page } = browser;
    try {
      await page.goto(`${host.url}/`);
      await waitForActiveWorker(page);

      await context.setOffline(true);
      await page.reload();
      await expect(page.getByTestId('nav')).toBeVisible();
      // Client-side navigation: Next fetches the route's RSC payload, which the worker precached.
      await page.getByTestId('nav.history').click();
      await expect(page).toHaveURL(`${host.url}/history`);
      await expect(page.getByTestId('nav.history')).toHaveAttribute('aria-current', 'page');
      // A full page load of another route, still offline.
      await page.goto(`${host.url}/settings`);
      await expect(page.getByTestId('nav.settings')).toHaveAttribute('aria-current', 'page');
      // The prerendered HTML already marks the tab; on a device that never paired the scripts load after the first
      // paint, so hydration may still be on its way (a loaded CI run read it too soon).
      await expect.poll(() => isHydrated(page), { message: '/settings hydrates offline' }).toBe(true);
      expect(await cspViolations(page)).toEqual([]);
    } finally {
      await context.setOffline(false);
      await browser.close();
    }
  });

  test('[R12.2] every page carries a strict CSP and loads without a violation', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      // Paired and connected, so the client parses the host's snapshot too (zod must not probe eval),
      // and the pairing request itself runs under the policy.
      await new AppPage(page, host).pair();
      for (const route of ROUTES) {
        const response = await page.goto(`${host.url}${route}`);
        const header = response?.headers()['content-security-policy'] ?? '';
        const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(header)?.[1] ?? '';
        expect(scriptSrc, `${route} script-src`).toMatch(/^'self'( 'sha256-[A-Za-z0-9+/=]+')*$/);
        expect(header, route).toContain("frame-ancestors 'none'");
        expect(header, route).toContain("object-src 'none'");
        const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
        expect(meta, `${route} meta`).toMatch(/script-src 'self'/);
        expect(meta, `${route} meta`).not.toMatch(/unsafe-eval|frame-ancestors/);
        await expect.poll(() => isHydrated(page), { message: `${route} hydrates` }).toBe(true);
        expect(await cspViolations(page), route).toEqual([]);
      }

      // The preview iframe (sandboxed srcdoc) still shows its own styles and data: images under the
      // app's policy, which it inherits: an image from another origin stays blocked.
      const otherOrigin = host.url.includes('127.0.0.1')
        ? host.url.replace('127.0.0.1', 'localhost')
        : host.url.replace('localhost', '127.0.0.1');
      await page.evaluate(
        ({ outside, png }) => {
          const frame = document.createElement('iframe');
          frame.setAttribute('sandbox', '');
          frame.setAttribute('data-testid', 'csp-probe');
          frame.srcdoc = `<p style="font-weight:700">preview</p><img id="inline" src="data:image/png;base64,${png}"><img id="outside" src="${outside}/icons/icon-192.png">`;
          document.body.append(frame);
        },
        { outside: otherOrigin, png: ONE_PIXEL_PNG },
      );
      const preview = page.frameLocator('[data-testid="csp-probe"]');
      await expect(preview.locator('p')).toHaveCSS('font-weight', '700');
      const loaded = (id: string) =>
        preview
          .locator(`#${id}`)
          .evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth > 0 : 'loading'));
      await expect.poll(() => loaded('inline')).toBe(true);
      await expect.poll(() => loaded('outside')).toBe(false);
    } finally {
      await browser.close();
    }
  });

  test('[R9.1] a new version waits until the page asks for it', async () => {
    test.slow();
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await page.goto(`${host.url}/`);
      await waitForActiveWorker(page);
      const sw = path.join(host.staticDir, 'sw.js');
      await writeFile(sw, `${await readFile(sw, 'utf8')}\n// next version\n`);

      await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        await registration?.update();
      });
      await expect
        .poll(() =>
          page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? 'none'),
        )
        .toBe('installed');
      // Still waiting after a reload: open pages keep the version they started with until the user agrees.
      await page.reload();
      // Chromium activates a skipped-waiting worker only once the old one has no fetch in flight;
      // right after a load, the router's prefetches are still going through it.
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state)).toBe(
        'installed',
      );

      await page.evaluate(async () => {
        Object.defineProperty(window, '__previousController', { value: navigator.serviceWorker.controller });
        (await navigator.serviceWorker.getRegistration())?.waiting?.postMessage({ type: 'SKIP_WAITING' });
      });
      await expect
        .poll(
          () =>
            page.evaluate(async () => {
              const registration = await navigator.serviceWorker.getRegistration();
              const previous = (window as unknown as { __previousController: ServiceWorker | null })
                .__previousController;
              const controller = navigator.serviceWorker.controller;
              return {
                waiting: registration?.waiting?.state ?? null,
                replaced: controller !== null && controller !== previous && controller === registration?.active,
              };
            }),
          { message: 'the waiting version takes over once asked', timeout: 15_000 },
        )
        .toEqual({ waiting: null, replaced: true });
    } finally {
      await browser.close();
    }
  });
});
