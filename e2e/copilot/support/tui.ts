import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from '@playwright/test';
import { asProcessEnv } from '../../claude-code/support/claude-project';
import { type CopilotInstall, ROOT } from './copilot-binary';

const exec = promisify(execFile);
const CLI = path.join(ROOT, 'dist', 'cli.js');
/** The TUI is ready in about 3 s on an idle machine; more under load. */
export const TUI_START_TIMEOUT_MS = 45_000;

/** `askaway copilot` in a detached tmux session on a private tmux server, in a temporary HOME. */
export interface CopilotTui {
  dir: string;
  project: string;
  screen(): Promise<string>;
  keys(keys: string[], options?: { literal?: boolean }): Promise<void>;
  waitFor(pattern: RegExp, timeout?: number): Promise<string>;
  /** The bridge's log (ASKAWAY_COPILOT_LOG). */
  log(): Promise<string>;
  submit(prompt: string): Promise<void>;
  /** Kills askaway and Copilot by their process group (the pane's), then the tmux server and the HOME. */
  stop(): Promise<void>;
}

export async function startCopilotTui(
  install: CopilotInstall,
  options: { modelUrl: string; askaway: { url: string; token: string } },
): Promise<CopilotTui> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'askaway-copilot-e2e-'));
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'project');
  await mkdir(path.join(home, '.copilot'), { recursive: true });
  await mkdir(project, { recursive: true });
  // Skips the folder-trust dialog.
  await writeFile(path.join(home, '.copilot', 'config.json'), JSON.stringify({ trustedFolders: [project] }));
  const logFile = path.join(dir, 'bridge.log');
  const env: Record<string, string> = {
    HOME: home,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TERM: 'xterm-256color',
    XDG_CACHE_HOME: install.xdgCache,
    COPILOT_BIN: install.binary,
    COPILOT_PROVIDER_BASE_URL: options.modelUrl,
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_API_KEY: 'not-a-key',
    COPILOT_MODEL: 'scripted',
    COPILOT_OFFLINE: 'true',
    ASKAWAY_URL: options.askaway.url,
    ASKAWAY_TOKEN: options.askaway.token,
    ASKAWAY_DATA_DIR: path.join(dir, 'askaway'),
    ASKAWAY_COPILOT_LOG: logFile,
  };
  const socket = `askaway-copilot-${randomUUID().slice(0, 8)}`;
  const tmux = (args: string[]) => exec('tmux', ['-L', socket, '-f', '/dev/null', ...args], { env: asProcessEnv(env) });
  const envArgs = Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  await tmux([
    'new-session',
    '-d',
    '-s',
    'copilot',
    '-x',
    '160',
    '-y',
    '50',
    '-c',
    project,
    ...envArgs,
    process.execPath,
    CLI,
    'copilot',
    '--no-auto-update',
  ]);
  await tmux(['set-option', '-t', 'copilot', 'remain-on-exit', 'on']);
  const { stdout } = await tmux(['display-message', '-p', '-t', 'copilot', '#{pane_pid}']);
  const panePid = Number(stdout.trim());
  const screen = async () => (await tmux(['capture-pane', '-p', '-t', 'copilot'])).stdout;
  const log = () => readFile(logFile, 'utf8').catch(() => '');
  let last = '';
  const waitFor = async (pattern: RegExp, timeout = 20_000) => {
    await expect
      .poll(async () => pattern.test((last = await screen())), { timeout, intervals: [100, 200] })
      .toBe(true)
      .catch((error: unknown) => {
        throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- last screen ---\n${last}`);
      });
    return last;
  };
  const tui: CopilotTui = {
    dir,
    project,
    screen,
    keys: async (keys, { literal = false } = {}) => {
      await tmux(['send-keys', '-t', 'copilot', ...(literal ? ['-l'] : []), ...keys]);
    },
    waitFor,
    log,
    async submit(prompt) {
      await tui.keys([prompt], { literal: true });
      await waitFor(new RegExp(prompt.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      await tui.keys(['Enter']);
    },
    async stop() {
      // The pane's process leads its own group: askaway and the Copilot it started.
      if (panePid > 0) {
        try {
          process.kill(-panePid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await tmux(['kill-server']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitFor(/Server listening on port \d+/, TUI_START_TIMEOUT_MS);
    await expect.poll(log, { timeout: TUI_START_TIMEOUT_MS }).toContain('following Copilot session');
  } catch (error) {
    await tui.stop();
    throw error;
  }
  return tui;
}
