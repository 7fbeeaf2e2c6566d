import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { testRunEnv } from '../../../lib/host/test-support/leftover-processes';
import { asProcessEnv } from './claude-project';

const exec = promisify(execFile);

/** Claude Code's interactive UI in a detached tmux session on a private tmux server. */
export interface TmuxSession {
  /** The visible screen as text. */
  screen(): Promise<string>;
  /** tmux key names (`Enter`, `Down`, `Escape`) or literal text with `{ literal: true }`. */
  keys(keys: string[], options?: { literal?: boolean }): Promise<void>;
  /** Whether the program in the pane has exited. */
  exited(): Promise<boolean>;
  stop(): Promise<void>;
}

export interface TmuxSessionOptions {
  binary: string;
  cwd: string;
  env: Record<string, string>;
  args?: string[];
}

export async function startTmuxSession(options: TmuxSessionOptions): Promise<TmuxSession> {
  // A server of our own (-L) so nothing else on the machine is touched, and kill-server stops only it.
  const socket = `askaway-e2e-${randomUUID().slice(0, 8)}`;
  const tmux = (args: string[]) =>
    exec('tmux', ['-L', socket, '-f', '/dev/null', ...args], { env: asProcessEnv(options.env) });
  const envArgs = Object.entries({ ...options.env, ...testRunEnv() }).flatMap(([key, value]) => [
    '-e',
    `${key}=${value}`,
  ]);
  await tmux([
    'new-session',
    '-d',
    '-s',
    'claude',
    '-x',
    '160',
    '-y',
    '50',
    '-c',
    options.cwd,
    ...envArgs,
    options.binary,
    ...(options.args ?? []),
  ]);
  // Keep the pane after the program exits, so its last screen can still be read.
  await tmux(['set-option', '-t', 'claude', 'remain-on-exit', 'on']);
  return {
    async screen() {
      const { stdout } = await tmux(['capture-pane', '-p', '-t', 'claude']);
      return stdout;
    },
    async keys(keys, { literal = false } = {}) {
      await tmux(['send-keys', '-t', 'claude', ...(literal ? ['-l'] : []), ...keys]);
    },
    async exited() {
      const { stdout } = await tmux(['display-message', '-p', '-t', 'claude', '#{pane_dead}']);
      return stdout.trim() === '1';
    },
    async stop() {
      await tmux(['kill-server']).catch(() => undefined);
    },
  };
}
