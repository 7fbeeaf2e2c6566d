// Playwright passes each fixture's value through a callback; it is named `provide` (not `use`) so
// React's hook lint rule does not mistake it for React's `use`.
import { test as base } from '@playwright/test';
import { connectScriptedRemote, type ScriptedRemote } from '../../../lib/runtime/test-support/scripted-remote';
import { startTestHost, type TestHost } from '../../support/host';
import { AppPage } from '../../support/pages';
import { startEditor, type AcpEditor, type EditorOptions } from './editor';
import { locateGemini } from './gemini-binary';
import { startScriptedGemini, type ScriptedGemini } from './gemini-model';

interface Fixtures {
  /** The pinned Gemini CLI; the test is skipped (locally) or fails (CI) when it is not installed. */
  gemini: { binary: string };
  host: TestHost;
  model: ScriptedGemini;
  /** A phone without a browser: a socket.io client on the host's '/remote'. */
  remote: ScriptedRemote;
  /** The real PWA in Chromium (a Pixel 7), paired with the host. */
  phone: AppPage;
  /** Starts an editor running Gemini CLI behind `askaway acp`; each is closed (and its agent stopped) after the test. */
  editor: (options: Pick<EditorOptions, 'onCancel'> & { hub?: EditorOptions['hub'] }) => Promise<AcpEditor>;
}

export const test = base.extend<Fixtures>({
  gemini: async ({}, provide, testInfo) => {
    const located = locateGemini();
    if ('missing' in located) {
      if (located.required) throw new Error(located.missing);
      testInfo.skip(true, located.missing);
      return;
    }
    await provide(located);
  },
  host: async ({}, provide) => {
    const host = await startTestHost();
    await provide(host);
    try {
      host.assertNoSecretsInOutput();
    } finally {
      await host.stop();
    }
  },
  model: async ({}, provide) => {
    const model = await startScriptedGemini();
    await provide(model);
    await model.close();
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
  editor: async ({ gemini, host, model }, provide, testInfo) => {
    const started: AcpEditor[] = [];
    await provide(async (options) => {
      const editor = await startEditor({
        gemini: gemini.binary,
        modelUrl: model.url,
        hub: options.hub ?? { url: host.url, token: host.token },
        onCancel: options.onCancel,
      });
      started.push(editor);
      return editor;
    });
    for (const editor of started) {
      if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('acp.log', { body: editor.log() });
      await editor.close();
    }
  },
});

export { expect } from '@playwright/test';
