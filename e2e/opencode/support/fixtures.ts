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
import { startTui } from './tui';

/** One OpenCode TUI per worker, shared by the tests of a serial file: it takes ~10 s to start. */
export interface SharedTui {
  lab: OpenCodeLab;
  tmux: TmuxSession;
}

interface WorkerFixtures {
  host: TestHost;
  /** One scripted model per worker; each test adds its own conversation. */
  model: ScriptedModel;
  located: ReturnType<typeof locateOpenCode>;
  /** Starts (once) and returns this worker's TUI, with the plugin installed globally. */
  sharedTui: () => Promise<SharedTui>;
  /** Labs made in this worker, removed at its end (their OpenCode processes stopped first). */
  labs: { make(options: Omit<OpenCodeLabOptions, 'install' | 'modelUrl'>): Promise<OpenCodeLab> };
}

interface Fixtures {
  /** The pinned OpenCode; the test is skipped (locally) or fails (CI) when it is not installed. */
  opencode: OpenCodeInstall;
  /** A phone without a browser: a socket.io client on the host's '/remote'. */
  remote: ScriptedRemote;
  /** The real PWA in Chromium (a Pixel 7), paired with the host. */
  phone: AppPage;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  located: [async ({}, provide) => provide(locateOpenCode()), { scope: 'worker' }],
  opencode: async ({ located }, provide, testInfo) => {
    if ('missing' in located) {
      if (located.required) throw new Error(located.missing);
      testInfo.skip(true, located.missing);
      return;
    }
    await provide(located);
  },
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
      let started: Promise<SharedTui> | undefined;
      await provide(() => {
        started ??= (async () => {
          if ('missing' in located) throw new Error(located.missing);
          const lab = await labs.make({ askaway: { url: host.url, token: host.token } });
          return { lab, tmux: await startTui(located.binary, lab) };
        })();
        return started;
      });
      if (started) await (await started.catch(() => undefined))?.tmux.stop();
    },
    { scope: 'worker' },
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
