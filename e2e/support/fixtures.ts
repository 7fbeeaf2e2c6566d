// Playwright passes each fixture's value through a callback; it is named `provide` (not `use`) so
// React's hook lint rule does not mistake it for React's `use`.
import { test as base, type BrowserContext } from '@playwright/test';
import { startTestHost, type TestHost } from './host';
import { AppPage } from './pages';
import { ScriptedRuntime } from './scripted-runtime';

interface Fixtures {
  /** Extra `askaway start` flags for this test's host (`test.use({ hostArgs: ['--pair-ttl', '2s'] })`). */
  hostArgs: readonly string[];
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
  hostArgs: [[], { option: true }],
  host: async ({ hostArgs }, provide) => {
    const host = await startTestHost(undefined, { args: hostArgs });
    await provide(host);
    try {
      // Across the whole test: no token, device credential or minted code in anything the host printed (R16.6).
      host.assertNoSecretsInOutput();
    } finally {
      await host.stop();
    }
  },
  runtime: async ({ host }, provide) => {
    const runtime = new ScriptedRuntime(host.url, host.token);
    await runtime.connected();
    await provide(runtime);
    runtime.close();
  },
  app: async ({ page, host }, provide) => {
    const app = new AppPage(page, host);
    await app.pair();
    await provide(app);
  },
  openDevice: async ({ browser, host }, provide) => {
    const contexts: BrowserContext[] = [];
    await provide(async (options = {}) => {
      const context = await browser.newContext({ serviceWorkers: 'block', ...options });
      contexts.push(context);
      const app = new AppPage(await context.newPage(), host);
      await app.pair();
      return app;
    });
    for (const context of contexts) await context.close();
  },
});

export { expect } from '@playwright/test';
