import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { type Writable } from 'node:stream';
import { inject } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * `node` and its arguments for `askaway <args>`: the CLI bundled from the current sources by
 * cli-bundle.global-setup.ts, the same build as dist/cli.js, one process with no compiler in it.
 */
export function cliCommand(args: readonly string[]): { command: string; args: string[]; cwd: string } {
  return { command: process.execPath, args: [inject('askawayCli'), ...args], cwd: ROOT };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `askaway <args>` as a real process, with `stdin` piped in. */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; stdin?: string; cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const cli = cliCommand(args);
    const child = spawn(cli.command, cli.args, {
      cwd: options.cwd ?? cli.cwd,
      env: { NODE_ENV: 'test', PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

export interface SpawnedCli {
  child: ChildProcess & { stdin: Writable };
  exited: Promise<number | string>;
  stdout: () => string;
  stderr: () => string;
}

/** Starts `askaway <args>` in ONE process (no wrapper), so signals sent to `child` reach the CLI itself. */
export function spawnCli(args: readonly string[], env: Record<string, string>): SpawnedCli {
  const cli = cliCommand(args);
  const child = spawn(cli.command, cli.args, {
    cwd: cli.cwd,
    env: { NODE_ENV: 'test', PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}
