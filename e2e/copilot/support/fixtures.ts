// Playwright passes each fixture's value through a callback; it is named `provide` (not `use`) so
// React's hook lint rule does not mistake it for React's `use`.
import { test as base } from '../../claude-code/support/fixtures';
import { startScriptedModel, type ScriptedModel } from '../../opencode/support/model-server';
import { locateCopilot, type CopilotInstall } from './copilot-binary';
import { createCopilotHome, startCopilotTui, type CopilotHome, type CopilotTui, type CopilotTuiOptions } from './tui';
import { provideLocated } from '../../support/agent-binary';

export interface CopilotLab {
  /** A fresh HOME and project (removed after the test). */
  home(): Promise<CopilotHome>;
  /**
   * `askaway copilot` in `at` (a fresh home when omitted), against the worker's scripted model (or `modelUrl`)
   * and, unless told otherwise, the worker's host; stopped after the test, passed or not.
   */
  tui(options?: Partial<CopilotTuiOptions> & { at?: CopilotHome }): Promise<CopilotTui>;
}

/**
 * The Claude Code suite's fixtures (its worker's host, the scripted phone, the PWA) with Copilot's own: the
 * `claude` fixture there is never asked for here, so a missing Claude Code changes nothing.
 */
export const test = base.extend<{ copilot: CopilotInstall; lab: CopilotLab }, { model: ScriptedModel }>({
  copilot: async ({}, provide, testInfo) => provideLocated(locateCopilot(), provide, testInfo),
  model: [
    async ({}, provide) => {
      const model = await startScriptedModel();
      await provide(model);
      await model.close();
    },
    { scope: 'worker' },
  ],
  lab: async ({ copilot, host, model }, provide) => {
    const homes: CopilotHome[] = [];
    const tuis: CopilotTui[] = [];
    const home = async () => {
      const made = await createCopilotHome();
      homes.push(made);
      return made;
    };
    try {
      await provide({
        home,
        async tui({ at, askaway = { url: host.url, token: host.token }, args, modelUrl = model.url } = {}) {
          const tui = await startCopilotTui(copilot, at ?? (await home()), {
            modelUrl,
            askaway,
            ...(args ? { args } : {}),
          });
          tuis.push(tui);
          return tui;
        },
      });
    } finally {
      // No Copilot outlives its test, failed or not.
      for (const tui of tuis) await tui.stop();
      for (const made of homes) await made.remove();
    }
  },
});

export { expect } from '@playwright/test';
