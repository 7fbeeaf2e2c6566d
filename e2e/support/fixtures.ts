import { test as base, type BrowserContext } from '@playwright/test';
import { startTestHost, type TestHost } from './host';
import { AppPage } from './pages';
import { ScriptedRuntime } from './scripted-runtime';

interface Fixtures {
  host: TestHost;
  runtime: ScriptedRuntime;
  /** The project's device (phone in 'mobile', desktop in 'desktop'), paired and connected. */
  app: AppPage;
  /** Opens another device (its own browser context) on the same host. */
  openDevice: (options?: { viewport?: { width: number; height: number }; isMobile?: boolean; hasTouch?: boolean }) => Promise<AppPage>;
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
  host: async ({}, use) => {
    const host = await startTestHost();
    await use(host);
    await host.stop();
  },
  runtime: async ({ host }, use) => {
    const runtime = new ScriptedRuntime(host.url, host.token);
    await runtime.connected();
    await use(runtime);
    runtime.close();
  },
  app: async ({ page, host }, use) => {
    const app = new AppPage(page, host.url, host.token);
    await app.pair();
    await use(app);
  },
  openDevice: async ({ browser, host }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (options = {}) => {
      const context = await browser.newContext({ serviceWorkers: 'block', ...options });
      contexts.push(context);
      const app = new AppPage(await context.newPage(), host.url, host.token);
      await app.pair();
      return app;
    });
    for (const context of contexts) await context.close();
  },
});

export { expect } from '@playwright/test';
