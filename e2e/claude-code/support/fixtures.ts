// Playwright passes each fixture's value through a callback; it is named `provide` (not `use`) so
// React's hook lint rule does not mistake it for React's `use`.
import { test as base } from '@playwright/test';
import { connectScriptedRemote, type ScriptedRemote } from '../../../lib/runtime/test-support/scripted-remote';
import { startTestHost, type TestHost } from '../../support/host';
import { AppPage } from '../../support/pages';
import { locateClaudeBinary } from './claude-binary';
import { createClaudeProject, type ClaudeProject, type ClaudeProjectOptions } from './claude-project';
import { startScriptedModel, type ScriptedConversation, type ScriptedModel } from './model-server';
import { provideLocated } from '../../support/agent-binary';
import { agentClock } from '../../support/agent-wait';

export interface Workspace {
  model: ScriptedModel;
  project: ClaudeProject;
  /** Claude Code processes started here; stopped (SIGKILL if they linger) when the test ends. */
  stoppers: (() => Promise<unknown>)[];
}

interface WorkerFixtures {
  host: TestHost;
}

interface Fixtures {
  /** When the test began, for the waits on Claude Code's work (automatic). */
  agentClock: undefined;
  /** The `claude` binary; the test is skipped (locally) or fails (CI) when it is not installed. */
  claude: string;
  /** A phone without a browser: a socket.io client on the host's '/remote'. */
  remote: ScriptedRemote;
  /** The real PWA in Chromium (a Pixel 7), paired with the host. */
  phone: AppPage;
  /** A scripted model and a project with Askaway's hooks installed, pointing at both. */
  workspace: (
    conversations: ScriptedConversation[],
    options?: Omit<ClaudeProjectOptions, 'modelUrl' | 'host'>,
  ) => Promise<Workspace>;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  agentClock,
  claude: async ({}, provide, testInfo) =>
    provideLocated(locateClaudeBinary(), (located) => provide(located.binary), testInfo),
  // One host per worker: every test matches its own interactions (by Claude Code session or tool use id).
  host: [
    async ({}, provide) => {
      const host = await startTestHost();
      await provide(host);
      try {
        // No token, device credential or minted code in anything the host printed (R16.6).
        host.assertNoSecretsInOutput();
      } finally {
        await host.stop();
      }
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
  workspace: async ({ host }, provide) => {
    const opened: Workspace[] = [];
    await provide(async (conversations, options = {}) => {
      const model = await startScriptedModel(conversations);
      const project = await createClaudeProject({ modelUrl: model.url, host, ...options });
      const workspace: Workspace = { model, project, stoppers: [] };
      opened.push(workspace);
      return workspace;
    });
    for (const { model, project, stoppers } of opened) {
      await Promise.all(stoppers.map((stop) => stop()));
      await model.close();
      await project.remove();
    }
  },
});

export { expect } from '@playwright/test';
