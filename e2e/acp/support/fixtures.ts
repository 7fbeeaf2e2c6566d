// Playwright passes each fixture's value through a callback; it is named `provide` (not `use`) so
// React's hook lint rule does not mistake it for React's `use`.
import { test as base, type TestInfo } from '@playwright/test';
import { connectScriptedRemote, type ScriptedRemote } from '../../../lib/runtime/test-support/scripted-remote';
import { startTestHost, type TestHost } from '../../support/host';
import { AppPage } from '../../support/pages';
import { startEditor, type AcpAgentLaunch, type AcpEditor, type EditorOptions } from './editor';
import { geminiAgent } from './agents';
import { locateGemini } from './gemini-binary';
import { startScriptedGemini, type ScriptedGemini } from './gemini-model';
import { provideLocated } from '../../support/agent-binary';
import { agentClock } from '../../support/agent-wait';

/** Starts an editor running the suite's agent behind `askaway acp`. */
export type StartEditor = (
  options: Pick<EditorOptions, 'onCancel'> & { hub?: EditorOptions['hub'] },
) => Promise<AcpEditor>;

interface HubFixtures {
  /** When the test began, for the waits on the agent's work (automatic). */
  agentClock: undefined;
  host: TestHost;
  /** A phone without a browser: a socket.io client on the host's '/remote'. */
  remote: ScriptedRemote;
  /** The real PWA in Chromium (a Pixel 7), paired with the host. */
  phone: AppPage;
}

/** The host and the phones every agent's tests share. */
export const acpTest = base.extend<HubFixtures>({
  agentClock,
  host: async ({}, provide) => {
    const host = await startTestHost();
    await provide(host);
    try {
      host.assertNoSecretsInOutput();
    } finally {
      await host.stop();
    }
  },
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

/**
 * The `editor` fixture for one agent: each editor started is closed after the test, passed or failed, and its
 * agent (with whatever it started) stopped; a failed test keeps the proxy's and the agent's stderr.
 */
export async function provideEditors(
  agent: AcpAgentLaunch,
  host: TestHost,
  provide: (start: StartEditor) => Promise<void>,
  testInfo: TestInfo,
): Promise<void> {
  const started: AcpEditor[] = [];
  try {
    await provide(async (options) => {
      const editor = await startEditor({
        agent,
        hub: options.hub ?? { url: host.url, token: host.token },
        onCancel: options.onCancel,
      });
      started.push(editor);
      return editor;
    });
  } finally {
    for (const editor of started) {
      if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('acp.log', { body: editor.log() });
      await editor.close();
    }
  }
}

interface GeminiFixtures {
  /** The pinned Gemini CLI; the test is skipped (locally) or fails (CI) when it is not installed. */
  gemini: { binary: string };
  model: ScriptedGemini;
  /** Starts an editor running Gemini CLI behind `askaway acp`. */
  editor: StartEditor;
}

export const test = acpTest.extend<GeminiFixtures>({
  gemini: async ({}, provide, testInfo) => provideLocated(locateGemini(), provide, testInfo),
  model: async ({}, provide) => {
    const model = await startScriptedGemini();
    await provide(model);
    await model.close();
  },
  editor: async ({ gemini, host, model }, provide, testInfo) => {
    await provideEditors(geminiAgent(gemini.binary, model.url), host, provide, testInfo);
  },
});

export { expect } from '@playwright/test';
