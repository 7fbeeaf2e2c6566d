// The Copilot CLI's fixtures for the ACP suite: the pinned binary (e2e/copilot's) and a scripted Chat
// Completions model (e2e/opencode's), beside the shared host and phones.
import { locateCopilot, type CopilotInstall } from '../../copilot/support/copilot-binary';
import { startScriptedModel, type ScriptedModel } from '../../opencode/support/model-server';
import { copilotAgent } from './agents';
import { acpTest, provideEditors, type StartEditor } from './fixtures';
import { provideLocated } from '../../support/agent-binary';

interface CopilotFixtures {
  /** The pinned Copilot CLI; the test is skipped (locally) or fails (CI) when it is not installed. */
  copilot: CopilotInstall;
  model: ScriptedModel;
  /** Starts an editor running `copilot --acp` behind `askaway acp`. */
  editor: StartEditor;
}

export const test = acpTest.extend<CopilotFixtures>({
  copilot: async ({}, provide, testInfo) => provideLocated(locateCopilot(), provide, testInfo),
  model: async ({}, provide) => {
    const model = await startScriptedModel();
    await provide(model);
    await model.close();
  },
  editor: async ({ copilot, host, model }, provide, testInfo) => {
    await provideEditors(copilotAgent(copilot, model.url), host, provide, testInfo);
  },
});

export { expect } from '@playwright/test';
