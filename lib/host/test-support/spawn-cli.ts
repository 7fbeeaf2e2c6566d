import { spawn, type ChildProcess } from 'node:child_process';
import { cliCommand } from '../../runtime/test-support/run-cli';

export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
}

const running = new Set<ChildProcess>();

/** Runs `askaway <args>` as one real process (the CLI bundled from the current sources). */
export function runCli(args: string[], env: Record<string, string> = {}): CliProcess {
  const cli = cliCommand(args);
  const child = spawn(cli.command, cli.args, {
    cwd: cli.cwd,
    env: { ...process.env, ASKAWAY_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** `askaway <args> --data-dir <dataDir>` to its end, against the host of that data dir: exit code and output. */
export async function cliIn(
  dataDir: string,
  ...args: string[]
): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const run = runCli([...args, '--data-dir', dataDir]);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** Starts a host and waits for its banner; returns the printed local URL and pairing link. */
export async function startCliHost(args: string[], env: Record<string, string> = {}) {
  // No Codex bridge: a developer's own Codex must not reach test hosts.
  const cli = runCli(['start', '--no-demo', ...(args.includes('--codex-home') ? [] : ['--no-codex']), ...args], env);
  const banner = await new Promise<{ url: string; pair: string }>((resolve, reject) => {
    const check = () => {
      const url = /Local:\s+(\S+)/.exec(cli.stdout())?.[1];
      const pair = /Pair:\s+(\S+)/.exec(cli.stdout())?.[1];
      if (url && pair) resolve({ url, pair });
    };
    cli.child.stdout?.on('data', check);
    void cli.exited.then((code) =>
      reject(new Error(`host exited (${code}) before its banner:\n${cli.stdout()}\n${cli.stderr()}`)),
    );
  });
  return { ...cli, ...banner };
}

export function killAllCli(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}
