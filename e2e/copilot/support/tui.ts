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

/** A temporary HOME and project where `askaway copilot` runs; a second TUI in it continues the first's sessions. */
export interface CopilotHome {
  dir: string;
  home: string;
  project: string;
  remove(): Promise<void>;
}

export async function createCopilotHome(): Promise<CopilotHome> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'askaway-copilot-e2e-'));
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'project');
  await mkdir(path.join(home, '.copilot'), { recursive: true });
  await mkdir(project, { recursive: true });
  // Skips the folder-trust dialog.
  await writeFile(path.join(home, '.copilot', 'config.json'), JSON.stringify({ trustedFolders: [project] }));
  return { dir, home, project, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Where the bridge reaches the hub: a host's URL and token, or a joined machine's data dir (its hub.json). */
export type AskawayTarget = { url: string; token: string } | { dataDir: string };

export interface CopilotTuiOptions {
  modelUrl: string;
  askaway: AskawayTarget;
  /** Copilot's own arguments (`--continue`, …), before `--no-auto-update`. */
  args?: string[];
}

/** `askaway copilot` in a detached tmux session on a private tmux server, in a CopilotHome. */
export interface CopilotTui {
  project: string;
  screen(): Promise<string>;
  keys(keys: string[], options?: { literal?: boolean }): Promise<void>;
  waitFor(pattern: RegExp, timeout?: number): Promise<string>;
  /** The bridge's log (ASKAWAY_COPILOT_LOG), this TUI's only. */
  log(): Promise<string>;
  submit(prompt: string): Promise<void>;
  /**
   * Ends Copilot: `kill` is SIGKILL to Copilot alone, as a crash or `kill -9` would; `terminate` is SIGTERM to
   * `askaway copilot`, which passes it on.
   */
  end(how: 'kill' | 'terminate'): Promise<void>;
  /**
   * Stops `askaway copilot` (SIGSTOP) while Copilot, its child, goes on: the bridge hears nothing from the hub or
   * from Copilot until `resume` (SIGCONT). Keep it short: the hub drops a runtime that is silent for 45 s.
   */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Waits until `askaway copilot` exited; its exit code. */
  exited(timeout?: number): Promise<number>;
  /** Kills askaway and Copilot by their process group (the pane's), then the tmux server. */
  stop(): Promise<void>;
}

let started = 0;

async function childrenOf(pid: number): Promise<number[]> {
  const { stdout } = await exec('pgrep', ['-P', String(pid)]).catch(() => ({ stdout: '' }));
  return stdout.split('\n').filter(Boolean).map(Number);
}

export async function startCopilotTui(
  install: CopilotInstall,
  at: CopilotHome,
  options: CopilotTuiOptions,
): Promise<CopilotTui> {
  started += 1;
  const logFile = path.join(at.dir, `bridge-${started}.log`);
  const exitFile = path.join(at.dir, `exit-${started}`);
  const askaway: Record<string, string> =
    'dataDir' in options.askaway
      ? { ASKAWAY_DATA_DIR: options.askaway.dataDir }
      : {
          ASKAWAY_URL: options.askaway.url,
          ASKAWAY_TOKEN: options.askaway.token,
          ASKAWAY_DATA_DIR: path.join(at.dir, 'askaway'),
        };
  const env: Record<string, string> = {
    HOME: at.home,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TERM: 'xterm-256color',
    TMPDIR: os.tmpdir(),
    XDG_CACHE_HOME: install.xdgCache,
    COPILOT_BIN: install.binary,
    COPILOT_PROVIDER_BASE_URL: options.modelUrl,
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_API_KEY: 'not-a-key',
    COPILOT_MODEL: 'scripted',
    COPILOT_OFFLINE: 'true',
    ...askaway,
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
    at.project,
    ...envArgs,
    // A shell keeps `askaway copilot`'s exit code (in the file named by $0): tmux's own pane_dead_status is
    // sometimes never set.
    '/bin/sh',
    '-c',
    '"$@"; echo $? > "$0"',
    exitFile,
    process.execPath,
    CLI,
    'copilot',
    ...(options.args ?? []),
    '--no-auto-update',
  ]);
  await tmux(['set-option', '-t', 'copilot', 'remain-on-exit', 'on']);
  const pane = async (format: string) => (await tmux(['display-message', '-p', '-t', 'copilot', format])).stdout.trim();
  const panePid = Number(await pane('#{pane_pid}'));
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
  let stopped = false;
  /** `askaway copilot`: the pane's shell's only child. */
  const askawayPid = async () => {
    const shell = await childrenOf(panePid);
    expect(shell).toHaveLength(1);
    return shell[0] ?? 0;
  };
  const tui: CopilotTui = {
    project: at.project,
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
    async end(how) {
      // The pane's shell runs `askaway copilot`, whose only child is Copilot.
      const askaway = await askawayPid();
      if (how === 'terminate') {
        process.kill(askaway, 'SIGTERM');
        return;
      }
      const copilot = await childrenOf(askaway);
      expect(copilot).toHaveLength(1);
      process.kill(copilot[0] ?? 0, 'SIGKILL');
    },
    async pause() {
      process.kill(await askawayPid(), 'SIGSTOP');
    },
    async resume() {
      process.kill(await askawayPid(), 'SIGCONT');
    },
    async exited(timeout = 15_000) {
      await expect.poll(() => readFile(exitFile, 'utf8').catch(() => ''), { timeout }).toMatch(/^\d+\n$/);
      return Number(await readFile(exitFile, 'utf8'));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      // The pane's process leads its own group: the shell, askaway and the Copilot it started.
      if (panePid > 0) {
        try {
          process.kill(-panePid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await tmux(['kill-server']).catch(() => undefined);
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
