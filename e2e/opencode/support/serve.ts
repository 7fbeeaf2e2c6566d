import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { expect } from '@playwright/test';
import { asProcessEnv } from '../../claude-code/support/claude-project';
import { type OpenCodeLab } from './opencode-lab';

/**
 * From spawning `opencode serve` to its health check answering: a few seconds idle, 30 s and more at a load of 15
 * on 2 cores. A test that starts one adds this to its timeout (test.setTimeout), so its waits keep their share.
 */
export const SERVE_START_TIMEOUT_MS = 60_000;

/** `opencode serve` (headless: the plugin runs in the server process), with Basic auth when a password is set. */
export interface OpenCodeServe {
  url: string;
  /** A JSON call to its HTTP API, with the password. */
  api(method: 'GET' | 'POST', route: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Every `opencode serve` started and not yet stopped: a test that times out never reaches its own stop. */
const running = new Set<ChildProcess>();

/** Stops whatever a test left running (the fixtures' teardown, which runs after a timeout too). */
export async function stopAllServes(): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child)));
}

async function stopChild(child: ChildProcess): Promise<void> {
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export async function startServe(binary: string, lab: OpenCodeLab, password?: string): Promise<OpenCodeServe> {
  const port = await freePort();
  const env = { ...lab.env, ...(password ? { OPENCODE_SERVER_PASSWORD: password } : {}) };
  const child = spawn(binary, ['serve', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: lab.project,
    env: asProcessEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (password) headers.authorization = `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}`;
  const call = async (method: 'GET' | 'POST', route: string, body?: unknown, signal?: AbortSignal) => {
    const response = await fetch(`${url}${route}`, {
      method,
      headers,
      ...(signal ? { signal } : {}),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  try {
    await expect
      .poll(
        async () => {
          if (child.exitCode !== null) throw new Error(`opencode serve exited ${child.exitCode}: ${output}`);
          // A connection made as it starts listening can hang: each try gives up after a while.
          const health = await call('GET', '/global/health', undefined, AbortSignal.timeout(2_000)).catch(
            (error: unknown) => ({ status: String((error as { cause?: unknown }).cause ?? error) }),
          );
          return health.status;
        },
        { timeout: SERVE_START_TIMEOUT_MS, intervals: [200], message: 'opencode serve never answered' },
      )
      .toBe(200);
  } catch (error) {
    await stopChild(child);
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- opencode serve ---\n${output}`);
  }
  return { url, api: (method, route, body) => call(method, route, body), stop: () => stopChild(child) };
}
