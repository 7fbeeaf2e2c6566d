import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { type Writable } from 'node:stream';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const CLI = path.join(ROOT, 'bin/cli.ts');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `askaway <args>` from source as a real process, with `stdin` piped in. */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; stdin?: string; cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [CLI, ...args], {
      cwd: options.cwd ?? ROOT,
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
}

/**
 * Starts `askaway <args>` from source in ONE process (node --import tsx, no tsx wrapper
 * process), so signals sent to `child` reach the CLI itself.
 */
export function spawnCli(args: readonly string[], env: Record<string, string>): SpawnedCli {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    env: { NODE_ENV: 'test', PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return { child, exited, stdout: () => stdout };
}
