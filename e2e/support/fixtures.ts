// Playwright passes each fixture's value through a callback; it is named `provide` (not `use`) so
// React's hook lint rule does not mistake it for React's `use`.
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
  openDevice: (options?: {
    viewport?: { width: number; height: number };
    isMobile?: boolean;
    hasTouch?: boolean;
  }) => Promise<AppPage>;
}

export const test = base.extend<Fixtures>({
  host: async ({}, provide) => {
    const host = await startTestHost();
    await provide(host);
    await host.stop();
  },
  runtime: async ({ host }, provide) => {
    const runtime = new ScriptedRuntime(host.url, host.token);
    await runtime.connected();
    await provide(runtime);
    runtime.close();
  },
  app: async ({ page, host }, provide) => {
    const app = new AppPage(page, host.url, host.token);
    await app.pair();
    await provide(app);
  },
  openDevice: async ({ browser, host }, provide) => {
    const contexts: BrowserContext[] = [];
    await provide(async (options = {}) => {
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
