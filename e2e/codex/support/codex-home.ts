import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from '@playwright/test';
import { controlSocketPath, processAlive, readDaemonProcess } from '../../../lib/runtime/agents/codex/codex-home';
import { asProcessEnv } from '../../claude-code/support/claude-project';
import { CODEX_VERSION, ROOT, type CodexInstall } from './codex-binary';

const exec = promisify(execFile);

/**
 * Where test homes live. Not under the system temp dir: there Codex refuses to create its PATH helper
 * aliases and warns on every start ("Refusing to create helper binaries under temporary dir").
 */
const HOMES = path.join(ROOT, '.cache', 'codex', 'homes');
const CLI = path.join(ROOT, 'dist', 'cli.js');
export const MODEL_KEY_ENV = 'ASKAWAY_E2E_MODEL_KEY';

/** A Codex home and work folder of its own, pointed at the scripted model, as a person sets Codex up. */
export interface CodexHome {
  root: string;
  home: string;
  codexHome: string;
  workDir: string;
  /** Everything the TUI (and so the daemon it starts, and the hooks the daemon runs) gets. */
  env: Record<string, string>;
  daemonPid(): Promise<number | undefined>;
  /** `codex app-server daemon start`: a daemon with this environment, as a TUI would start it. */
  startDaemon(): Promise<void>;
  /**
   * Ends the daemon and its updater by pid: SIGTERM, then SIGKILL after 2 s (it drains forever while a
   * request waits), or SIGKILL at once (a daemon that crashed).
   */
  stopDaemon(options?: { kill?: boolean }): Promise<void>;
  remove(): Promise<void>;
}

export interface CodexHomeOptions {
  install: CodexInstall;
  modelUrl: string;
  /** Top-level config keys, e.g. `approval_policy = "on-request"`. */
  top?: string[];
  /** More tables, e.g. an MCP server. */
  tables?: string[];
  /** More environment, e.g. the host for hooks (`askaway` and `codex` are on PATH already). */
  env?: Record<string, string>;
}

function hardLinkTree(from: string, to: string): void {
  const stat = lstatSync(from);
  if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
  else if (stat.isDirectory()) {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from)) hardLinkTree(path.join(from, entry), path.join(to, entry));
  } else linkSync(from, to);
}

/**
 * The daemon's own copy of Codex, which it makes (424 MB, 3–7 s) on its first start in a home without
 * `packages/`: the same layout as the npm platform package, so hard links make it in a few milliseconds.
 */
function linkPackages(vendorDir: string, codexHome: string): void {
  const release = `${CODEX_VERSION}-${path.basename(vendorDir)}`;
  const daemonDir = path.join(codexHome, 'packages', 'app-server-daemon');
  const releaseDir = path.join(daemonDir, 'releases', release);
  mkdirSync(path.dirname(releaseDir), { recursive: true });
  hardLinkTree(vendorDir, releaseDir);
  symlinkSync('bin/codex', path.join(releaseDir, 'codex'));
  symlinkSync(releaseDir, path.join(daemonDir, 'current'));
  writeFileSync(path.join(daemonDir, 'auto-update-version'), release);
}

function configToml(options: CodexHomeOptions, workDir: string): string {
  return [
    'model_provider = "e2e"',
    // gpt-5.5 has classic function tools (exec_command, apply_patch, request_user_input); gpt-6 models are code-mode only.
    'model = "gpt-5.5"',
    'suppress_unstable_features_warning = true',
    ...(options.top ?? []),
    '',
    // Pre-answers "Trust this folder?".
    `[projects.${JSON.stringify(workDir)}]`,
    'trust_level = "trusted"',
    '',
    '[model_providers.e2e]',
    'name = "e2e"',
    `base_url = "${options.modelUrl}"`,
    'wire_api = "responses"',
    `env_key = "${MODEL_KEY_ENV}"`,
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    // Without it the TUI opens a "Meet GPT-6 Sol" migration prompt for gpt-5.5.
    '[notice.model_migrations]',
    '"gpt-5.5" = "gpt-6-sol"',
    '',
    '[analytics]',
    'enabled = false',
    '',
    ...(options.tables ?? []),
    '',
  ].join('\n');
}

export async function createCodexHome(options: CodexHomeOptions): Promise<CodexHome> {
  // Codex trusts a folder by its real path: a cache reached through a symlink (a worktree's) would not match.
  mkdirSync(HOMES, { recursive: true });
  const root = path.join(realpathSync(HOMES), randomUUID().slice(0, 8));
  const home = path.join(root, 'home');
  const codexHome = path.join(root, 'codex-home');
  const workDir = path.join(root, 'work');
  const bin = path.join(root, 'bin');
  for (const dir of [home, codexHome, workDir, bin]) mkdirSync(dir, { recursive: true });
  await exec('git', ['init', '-q', workDir]);
  // On PATH as a person has them: `askaway` (this checkout's build) for hooks and MCP servers, `codex`.
  writeFileSync(
    path.join(bin, 'askaway'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`,
    {
      mode: 0o755,
    },
  );
  symlinkSync(options.install.binary, path.join(bin, 'codex'));
  writeFileSync(path.join(codexHome, 'config.toml'), configToml(options, workDir));
  if (options.install.vendorDir) linkPackages(options.install.vendorDir, codexHome);
  const env: Record<string, string> = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    CODEX_HOME: codexHome,
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    TMPDIR: os.tmpdir(),
    [MODEL_KEY_ENV]: 'e2e-not-a-real-key',
    ...options.env,
  };
  const daemonPids = async () => {
    const dir = path.join(codexHome, 'app-server-daemon');
    return [
      (await readDaemonProcess(codexHome))?.pid,
      (await readDaemonProcess(codexHome, path.join(dir, 'daemon-updater.pid')))?.pid,
    ];
  };
  const stopDaemon = async ({ kill = false } = {}) => {
    const pids = (await daemonPids()).filter((pid): pid is number => pid !== undefined && processAlive(pid));
    for (const pid of pids) process.kill(pid, kill ? 'SIGKILL' : 'SIGTERM');
    await expect
      .poll(() => pids.filter(processAlive), { timeout: 2_000 })
      .toEqual([])
      .catch(() => {
        for (const pid of pids.filter(processAlive)) process.kill(pid, 'SIGKILL');
      });
    // The sockets and their locks live under the system temp dir, behind symlinks in the home.
    for (const link of [
      controlSocketPath(codexHome),
      path.join(codexHome, 'app-server-daemon', 'daemon-updater.sock'),
    ]) {
      let target: string;
      try {
        target = readlinkSync(link);
      } catch {
        continue;
      }
      rmSync(target, { force: true });
      rmSync(`${target}.lock`, { force: true });
      rmSync(link, { force: true });
    }
  };
  return {
    root,
    home,
    codexHome,
    workDir,
    env,
    daemonPid: async () => {
      const pid = (await readDaemonProcess(codexHome))?.pid;
      return pid !== undefined && processAlive(pid) ? pid : undefined;
    },
    async startDaemon() {
      await exec(options.install.binary, ['app-server', 'daemon', 'start'], {
        cwd: workDir,
        env: asProcessEnv(env),
        timeout: 30_000,
      });
    },
    stopDaemon,
    async remove() {
      await stopDaemon();
      if (existsSync(root)) rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
