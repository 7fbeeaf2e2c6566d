import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');

/** A real `askaway start` on its own data dir; restartable on the same port. */
export interface TestHost {
  url: string;
  port: number;
  token: string;
  dataDir: string;
  /** The folder it serves: out/, or a private copy when asked for (a test may change its files). */
  staticDir: string;
  output(): string;
  /** Stops the process (SIGTERM) and starts it again on the same port and data dir. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** An installed `askaway` (an npm package, not this checkout): run from elsewhere, serving its own out/. */
export interface InstalledCli {
  /** The `askaway` executable npm linked. */
  bin: string;
  /** The installed package's folder. */
  packageDir: string;
}

function launch(port: number, dataDir: string, token: string, staticDir: string, installed?: InstalledCli) {
  const common = ['start', '--port', String(port), '--no-demo', '--data-dir', dataDir];
  // The installed one gets no --static-dir and runs outside the checkout: it must find its own out/.
  const command = installed ? installed.bin : process.execPath;
  const args = installed ? common : [CLI, ...common, '--static-dir', staticDir];
  const child: ChildProcess = spawn(command, args, {
    cwd: installed ? path.dirname(dataDir) : ROOT,
    env: { ...process.env, ASKAWAY_TOKEN: token, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Local:\s+(https?:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1].replace(/\/$/, ''));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`host exited (${code}) before listening:\n${output}`)));
  });
  return { child, url, output: () => output };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export async function startTestHost(
  token = `e2e-${Math.random().toString(36).slice(2)}`,
  options: { privateStaticCopy?: boolean; installed?: InstalledCli } = {},
): Promise<TestHost> {
  const { installed } = options;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'askaway-e2e-'));
  const dataDir = path.join(dir, 'data');
  let staticDir = installed ? path.join(installed.packageDir, 'out') : path.join(ROOT, 'out');
  if (options.privateStaticCopy) {
    staticDir = path.join(dir, 'static');
    await cp(path.join(ROOT, 'out'), staticDir, { recursive: true });
  }
  let current = launch(0, dataDir, token, staticDir, installed);
  const url = await current.url;
  const port = Number(new URL(url).port);
  let log = '';
  return {
    url,
    port,
    token,
    dataDir,
    staticDir,
    output: () => log + current.output(),
    async restart() {
      await stopChild(current.child);
      log += current.output();
      current = launch(port, dataDir, token, staticDir, installed);
      await current.url;
    },
    async stop() {
      await stopChild(current.child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
