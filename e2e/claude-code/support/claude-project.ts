import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { testRunEnv } from '../../../lib/host/test-support/leftover-processes';
import { ROOT } from './claude-binary';

const CLI = path.join(ROOT, 'dist', 'cli.js');

/**
 * The environment as spawn() types it (Next declares NODE_ENV required; Claude Code runs without it), with the
 * run's mark, so that an agent left running is found at the end of the run (e2e/support/global-setup.ts).
 */
export function asProcessEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...env, ...testRunEnv() } as NodeJS.ProcessEnv;
}

/** A temporary project and HOME where Claude Code runs with Askaway's hooks, as a user sets them up. */
export interface ClaudeProject {
  dir: string;
  home: string;
  /** The whole environment Claude Code runs with (nothing leaks in from the test runner's). */
  env: Record<string, string>;
  settings(): Promise<unknown>;
  /** What the project's MCP server logged (`mcpServer`): one JSON object per line of MCP_SERVER_LOG. */
  mcpServerLog(): Promise<Record<string, unknown>[]>;
  remove(): Promise<void>;
}

export interface ClaudeProjectOptions {
  modelUrl: string;
  host: { url: string; token: string };
  /** The hook's own `--timeout` (when it hands the question back to the terminal). */
  hookTimeout?: string;
  /** `hook install --all-tools`: every tool's permission prompt goes to the phone. */
  allTools?: boolean;
  /** `hook install --http`: Claude Code POSTs to the host's hook endpoint instead of running a command. */
  http?: boolean;
  /** `hook install --pre-tool-use`: AskUserQuestion the old way, as settings written before R11.8 have it. */
  preToolUse?: boolean;
  /** `hook install --form-wait`: how long an MCP form waits for the phone (R11.11). */
  formWait?: string;
  /**
   * A stdio MCP server of the project (`.mcp.json`), enabled and its tools allowed in the project's settings
   * before the hooks are installed, as a person would have it. It gets MCP_SERVER_LOG, a file the test reads.
   */
  mcpServer?: { name: string; script: string; env?: Record<string, string> };
  /**
   * The folder already trusted (`.claude.json`), as after its first interactive run. Print mode applies the
   * project's allow rules to a project MCP server's tools only then (2.1.332 asks the SDK host otherwise).
   */
  trusted?: boolean;
  /**
   * The finished-turn hooks (Stop, StopFailure, R19.50) as `hook install` writes them by default; left out
   * (`--no-finished-turns`) unless a test is about them, so other tests' turns leave no card and no background hook.
   * `no-reply`: `hook install --no-reply`.
   */
  finishedTurns?: boolean | 'no-reply';
  /** `hook install --reply-wait`. */
  replyWait?: string;
}

/** `askaway <args>` from this checkout's build, to the end; rejects with its output when it fails. */
export function runAskaway(args: string[], cwd: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: asProcessEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`askaway ${args.join(' ')} exited ${code}: ${output}`)),
    );
  });
}

export async function createClaudeProject(options: ClaudeProjectOptions): Promise<ClaudeProject> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'askaway-claude-'));
  const home = path.join(root, 'home');
  const dir = path.join(root, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(dir, { recursive: true });
  // Its own git repository, as a project is: Claude Code takes the nearest folder above the working directory
  // that holds a `.git` as the workspace whose trust counts (2.1.332). Without one here, a stray `.git` in the
  // temp dir (an empty /tmp/.git appeared on a shared machine) makes that folder the workspace: the trust
  // below is then for the wrong folder and print mode drops the project's allow rules.
  await promisify(execFile)('git', ['init', '--quiet', dir]);
  // Onboarding done; every other first-run dialog is left to Claude Code (the tmux tests answer them).
  const trust = options.trusted ? { projects: { [dir]: { hasTrustDialogAccepted: true } } } : {};
  await writeFile(path.join(home, '.claude.json'), `${JSON.stringify({ hasCompletedOnboarding: true, ...trust })}\n`);
  const mcpLog = path.join(root, 'mcp-server.jsonl');
  if (options.mcpServer) {
    const { name, script, env: serverEnv } = options.mcpServer;
    const server = {
      type: 'stdio',
      command: process.execPath,
      args: [script],
      env: { ...serverEnv, MCP_SERVER_LOG: mcpLog },
    };
    await writeFile(path.join(dir, '.mcp.json'), `${JSON.stringify({ mcpServers: { [name]: server } }, null, 2)}\n`);
    await mkdir(path.join(dir, '.claude'), { recursive: true });
    const settings = { enableAllProjectMcpServers: true, permissions: { allow: [`mcp__${name}`] } };
    await writeFile(path.join(dir, '.claude', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  }
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    TMPDIR: os.tmpdir(),
    ANTHROPIC_BASE_URL: options.modelUrl,
    ANTHROPIC_API_KEY: 'sk-ant-api03-askaway-e2e-not-a-real-key-0000000000',
    // Offline: no updater, no telemetry or error reports, no other traffic than the model.
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ASKAWAY_URL: options.host.url,
    ASKAWAY_TOKEN: options.host.token,
    ASKAWAY_DATA_DIR: path.join(root, 'askaway'),
    NO_COLOR: '1',
  };
  const timeout = options.hookTimeout ? ` --timeout ${options.hookTimeout}` : '';
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} hook claude-code${timeout}`;
  // Exactly what a user runs in their project (with the command pointing at this checkout's build).
  const wiring = options.http ? ['--http'] : ['--command', command];
  const flags = [
    ...(options.allTools ? ['--all-tools'] : []),
    ...(options.preToolUse ? ['--pre-tool-use'] : []),
    ...(options.formWait ? ['--form-wait', options.formWait] : []),
    ...(options.finishedTurns === undefined || options.finishedTurns === false ? ['--no-finished-turns'] : []),
    ...(options.finishedTurns === 'no-reply' ? ['--no-reply'] : []),
    ...(options.replyWait ? ['--reply-wait', options.replyWait] : []),
  ];
  await runAskaway(['hook', 'install', '--write', ...flags, ...wiring], dir, env);
  return {
    dir,
    home,
    env,
    settings: async () => JSON.parse(await readFile(path.join(dir, '.claude', 'settings.json'), 'utf8')) as unknown,
    mcpServerLog: async () =>
      (await readFile(mcpLog, 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    remove: () => rm(root, { recursive: true, force: true, maxRetries: 3 }),
  };
}
