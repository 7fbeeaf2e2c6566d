import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
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
  output(): string;
  /** Stops the process (SIGTERM) and starts it again on the same port and data dir. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function launch(port: number, dataDir: string, token: string) {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'start', '--port', String(port), '--no-demo', '--data-dir', dataDir], {
    cwd: ROOT,
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

export async function startTestHost(token = `e2e-${Math.random().toString(36).slice(2)}`): Promise<TestHost> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'askaway-e2e-'));
  const dataDir = path.join(dir, 'data');
  let current = launch(0, dataDir, token);
  const url = await current.url;
  const port = Number(new URL(url).port);
  let log = '';
  return {
    url,
    port,
    token,
    dataDir,
    output: () => log + current.output(),
    async restart() {
      await stopChild(current.child);
      log += current.output();
      current = launch(port, dataDir, token);
      await current.url;
    },
    async stop() {
      await stopChild(current.child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
