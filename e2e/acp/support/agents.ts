// The agents the suite runs behind `askaway acp`, each against its scripted model in the editor's temporary HOME.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type CopilotInstall } from '../../copilot/support/copilot-binary';
import { type AcpAgentLaunch } from './editor';

/** `gemini --acp` against the scripted Gemini API, signed in with an API key. */
export function geminiAgent(binary: string, modelUrl: string): AcpAgentLaunch {
  return {
    command: [binary, '--acp'],
    env: {
      GOOGLE_GEMINI_BASE_URL: modelUrl,
      GEMINI_API_KEY: 'e2e-not-a-real-key',
      GEMINI_CLI_NO_RELAUNCH: 'true',
    },
    prepare: async ({ home }) => {
      await mkdir(path.join(home, '.gemini'), { recursive: true });
      await writeFile(
        path.join(home, '.gemini', 'settings.json'),
        JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
      );
    },
    authMethod: 'gemini-api-key',
  };
}

/**
 * `copilot --acp` offline against a scripted Chat Completions model (BYOK: no GitHub sign-in, so no
 * `authenticate`), with the project's folder trusted and the unpacked package cache shared between tests.
 */
export function copilotAgent(install: CopilotInstall, modelUrl: string): AcpAgentLaunch {
  return {
    command: [install.binary, '--acp', '--no-auto-update'],
    env: {
      XDG_CACHE_HOME: install.xdgCache,
      COPILOT_PROVIDER_BASE_URL: modelUrl,
      COPILOT_PROVIDER_TYPE: 'openai',
      COPILOT_PROVIDER_API_KEY: 'not-a-key',
      COPILOT_MODEL: 'scripted',
      COPILOT_OFFLINE: 'true',
    },
    prepare: async ({ home, project }) => {
      await mkdir(path.join(home, '.copilot'), { recursive: true });
      await writeFile(path.join(home, '.copilot', 'config.json'), JSON.stringify({ trustedFolders: [project] }));
    },
  };
}
