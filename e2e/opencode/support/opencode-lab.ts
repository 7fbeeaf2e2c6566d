import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runAskaway } from '../../claude-code/support/claude-project';
import { ROOT, type OpenCodeInstall } from './opencode-binary';
import { providerConfig } from './model-server';

const CLI = path.join(ROOT, 'dist', 'cli.js');
/** What the plugin starts: this checkout's build (`askaway` is not on PATH in CI). */
export const BRIDGE_COMMAND = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} opencode bridge`;

/** Which Askaway OpenCode's bridge talks to: a host by URL and token, or a joined machine's data dir (hub.json). */
export type AskawayTarget = { url: string; token: string } | { dataDir: string };

/** A fresh HOME, XDG folders and project where OpenCode runs with Askaway's plugin, as a user sets it up. */
export interface OpenCodeLab {
  root: string;
  project: string;
  /** The whole environment OpenCode runs with (nothing leaks in from the test runner's). */
  env: Record<string, string>;
  /** The plugin as `askaway opencode install` wrote it. */
  pluginFile: string;
  /** The bridge's log lines (ASKAWAY_OPENCODE_LOG). */
  bridgeLog(): Promise<string>;
  remove(): Promise<void>;
}

export interface OpenCodeLabOptions {
  install: OpenCodeInstall;
  modelUrl: string;
  askaway: AskawayTarget;
  /** `opencode install --project` instead of the global plugin folder. */
  perProject?: boolean;
}

export async function createOpenCodeLab(options: OpenCodeLabOptions): Promise<OpenCodeLab> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'askaway-opencode-'));
  const dirs = {
    home: path.join(root, 'home'),
    project: path.join(root, 'project'),
    config: path.join(root, 'xdg', 'config'),
    data: path.join(root, 'xdg', 'data'),
    cache: path.join(root, 'xdg', 'cache'),
    state: path.join(root, 'xdg', 'state'),
  };
  for (const dir of Object.values(dirs)) await mkdir(dir, { recursive: true });
  // OpenCode's own package in its config folder, installed already: no background npm install to wait for.
  await cp(options.install.preparedConfig, path.join(dirs.config, 'opencode'), { recursive: true });
  const config = {
    $schema: 'https://opencode.ai/config.json',
    ...providerConfig(options.modelUrl),
    autoupdate: false,
    share: 'disabled',
    permission: { bash: 'ask', edit: 'ask' },
  };
  await writeFile(path.join(dirs.project, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
  const bridgeLog = path.join(root, 'bridge.log');
  const target: Record<string, string> =
    'dataDir' in options.askaway
      ? { ASKAWAY_DATA_DIR: options.askaway.dataDir }
      : {
          ASKAWAY_URL: options.askaway.url,
          ASKAWAY_TOKEN: options.askaway.token,
          ASKAWAY_DATA_DIR: path.join(root, 'askaway'),
        };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dirs.home,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    XDG_STATE_HOME: dirs.state,
    TMPDIR: os.tmpdir(),
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    // Offline: no models.dev fetch, no self-update.
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    ASKAWAY_OPENCODE_LOG: bridgeLog,
    ...target,
  };
  // Exactly what a user runs (with the command pointing at this checkout's build).
  const place = options.perProject ? ['--project'] : [];
  await runAskaway(['opencode', 'install', ...place, '--command', BRIDGE_COMMAND], dirs.project, env);
  // The project's .opencode/ is a config folder too: OpenCode installs its plugin package there as well, and
  // loads the project's plugins only once that is done (10 s here with the registry, 30 s and more under load).
  // A project where OpenCode has run before has it already.
  if (options.perProject)
    await cp(options.install.preparedConfig, path.join(dirs.project, '.opencode'), { recursive: true });
  const pluginFile = options.perProject
    ? path.join(dirs.project, '.opencode', 'plugins', 'askaway.js')
    : path.join(dirs.config, 'opencode', 'plugins', 'askaway.js');
  return {
    root,
    project: dirs.project,
    env,
    pluginFile,
    bridgeLog: () => readFile(bridgeLog, 'utf8').catch(() => ''),
    remove: () => rm(root, { recursive: true, force: true, maxRetries: 3 }),
  };
}
