// Playwright passes each fixture's value through a callback; it is named `provide` (not `use`) so
// React's hook lint rule does not mistake it for React's `use`.
import { test as base } from '@playwright/test';
import { connectScriptedRemote, type ScriptedRemote } from '../../../lib/runtime/test-support/scripted-remote';
import { type TmuxSession } from '../../claude-code/support/tmux-session';
import { startTestHost, type TestHost } from '../../support/host';
import { AppPage } from '../../support/pages';
import { locateOpenCode, type OpenCodeInstall } from './opencode-binary';
import { createOpenCodeLab, type OpenCodeLab, type OpenCodeLabOptions } from './opencode-lab';
import { startScriptedModel, type ScriptedModel } from './model-server';
import { stopAllServes } from './serve';
import { startTui, TUI_START_TIMEOUT_MS } from './tui';
import { provideLocated } from '../../support/agent-binary';
import { agentClock } from '../../support/agent-wait';

/** One OpenCode TUI per worker, shared by the tests of a serial file: it takes ~10 s to start. */
export interface SharedTui {
  lab: OpenCodeLab;
  /** The running TUI; `restart` replaces it. */
  tmux: TmuxSession;
  /** Closes this OpenCode, runs `between` (OpenCode is down then), and starts another in the same lab. */
  restart(between: () => Promise<void>): Promise<void>;
}

interface WorkerFixtures {
  host: TestHost;
  /** One scripted model per worker; each test adds its own conversation. */
  model: ScriptedModel;
  located: ReturnType<typeof locateOpenCode>;
  /** This worker's TUI, with the plugin installed globally (the test using it is skipped without OpenCode). */
  sharedTui: () => Promise<SharedTui>;
  /** Labs made in this worker, removed at its end (their OpenCode processes stopped first). */
  labs: { make(options: Omit<OpenCodeLabOptions, 'install' | 'modelUrl'>): Promise<OpenCodeLab> };
}

interface Fixtures {
  /** When the test began, for the waits on OpenCode's work (automatic). */
  agentClock: undefined;
  /** Stops the test's `opencode serve` processes after it (automatic). */
  serves: undefined;
  /** The pinned OpenCode; the test is skipped (locally) or fails (CI) when it is not installed. */
  opencode: OpenCodeInstall;
  /** A phone without a browser: a socket.io client on the host's '/remote'. */
  remote: ScriptedRemote;
  /** The real PWA in Chromium (a Pixel 7), paired with the host. */
  phone: AppPage;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  agentClock,
  // After every test, passed, failed or timed out: no `opencode serve` it started outlives it.
  serves: [
    async ({}, provide) => {
      await provide(undefined);
      await stopAllServes();
    },
    { auto: true },
  ],
  located: [async ({}, provide) => provide(locateOpenCode()), { scope: 'worker' }],
  opencode: async ({ located }, provide, testInfo) => provideLocated(located, provide, testInfo),
  host: [
    async ({}, provide) => {
      const host = await startTestHost();
      await provide(host);
      try {
        host.assertNoSecretsInOutput();
      } finally {
        await host.stop();
      }
    },
    { scope: 'worker' },
  ],
  model: [
    async ({}, provide) => {
      const model = await startScriptedModel();
      await provide(model);
      await model.close();
    },
    { scope: 'worker' },
  ],
  labs: [
    async ({ located, model }, provide) => {
      const made: OpenCodeLab[] = [];
      await provide({
        async make(options) {
          if ('missing' in located) throw new Error(located.missing);
          const lab = await createOpenCodeLab({ install: located, modelUrl: model.url, ...options });
          made.push(lab);
          return lab;
        },
      });
      for (const lab of made) await lab.remove();
    },
    { scope: 'worker' },
  ],
  sharedTui: [
    async ({ located, host, labs }, provide) => {
      // Started at the worker's first test that asks for it, on its own timeout (not that test's).
      if ('missing' in located) {
        await provide(() => Promise.reject(new Error(located.missing)));
        return;
      }
      const lab = await labs.make({ askaway: { url: host.url, token: host.token } });
      const shared: SharedTui = {
        lab,
        tmux: await startTui(located.binary, lab),
        async restart(between) {
          await shared.tmux.stop();
          await between();
          shared.tmux = await startTui(located.binary, lab);
        },
      };
      await provide(() => Promise.resolve(shared));
      await shared.tmux.stop();
    },
    { scope: 'worker', timeout: TUI_START_TIMEOUT_MS + 10_000 },
  ],
  remote: async ({ host }, provide) => {
    const remote = await connectScriptedRemote(host.url, (await host.pairDevice('Scripted phone')).credential);
    await provide(remote);
    remote.close();
  },
  phone: async ({ page, host }, provide) => {
    const phone = new AppPage(page, host);
    await phone.pair();
    await provide(phone);
  },
});

export { expect } from '@playwright/test';
