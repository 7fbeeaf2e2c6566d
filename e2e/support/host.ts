import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  PairingCodeResponseSchema,
  PairResponseSchema,
  type PairingCodeResponse,
  type PairResponse,
} from '../../lib/contracts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');

/** A real `askaway start` on its own data dir; restartable on the same port. */
export interface TestHost {
  url: string;
  port: number;
  /** The agent token (runtimes only). */
  token: string;
  /** `<dataDir>/admin-token`: what `askaway pair` uses. */
  adminToken: string;
  dataDir: string;
  /** The folder it serves: out/, or a private copy when asked for (a test may change its files). */
  staticDir: string;
  /** Everything every process of this host printed, restarts included. */
  output(): string;
  /** A fresh one-time pairing link, as `askaway pair` mints it (admin API). */
  mintPairingCode(): Promise<PairingCodeResponse>;
  /** A device paired over HTTP as the app does (for a device without a browser). */
  pairDevice(name?: string): Promise<PairResponse>;
  /** Remembers a credential a browser got, so teardown can prove the host never printed it. */
  rememberSecret(secret: string): void;
  /** Throws when the host's output holds the agent or admin token, a device credential or a minted code (R16.6). */
  assertNoSecretsInOutput(): void;
  /** Stops the process (SIGTERM) and starts it again on the same port and data dir. */
  restart(): Promise<void>;
  /** Stops the process (SIGTERM), keeping its port and data dir for resume(): the host is down. */
  halt(): Promise<void>;
  /** Starts a halted host again on the same port and data dir. */
  resume(): Promise<void>;
  /** Kills the process with SIGKILL (nothing of its own shutdown runs) and waits for it to be gone. */
  crash(): Promise<void>;
  stop(): Promise<void>;
}

/** `askaway <args> --data-dir <host's>` as the owner runs it on the host (dist/cli.js); its stdout. */
export function ownerCli(host: Pick<TestHost, 'dataDir'>, args: readonly string[]): string {
  return execFileSync(process.execPath, [CLI, ...args, '--data-dir', host.dataDir], { cwd: ROOT, encoding: 'utf8' });
}

/** An installed `askaway` (an npm package, not this checkout): run from elsewhere, serving its own out/. */
export interface InstalledCli {
  /** The `askaway` executable npm linked. */
  bin: string;
  /** The installed package's folder. */
  packageDir: string;
}

function launch(
  port: number,
  dataDir: string,
  token: string,
  staticDir: string,
  extraArgs: readonly string[],
  installed?: InstalledCli,
) {
  // No Codex bridge unless a test names a Codex home: a developer's own Codex must not reach test hosts.
  const codex = extraArgs.includes('--codex-home') ? [] : ['--no-codex'];
  const common = ['start', '--port', String(port), '--no-demo', ...codex, '--data-dir', dataDir, ...extraArgs];
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

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json: unknown = await response.json();
  if (!response.ok) throw new Error(`POST ${new URL(url).pathname} → ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

export async function startTestHost(
  token = `e2e-${Math.random().toString(36).slice(2)}`,
  options: { privateStaticCopy?: boolean; args?: readonly string[]; installed?: InstalledCli } = {},
): Promise<TestHost> {
  const { installed } = options;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'askaway-e2e-'));
  const dataDir = path.join(dir, 'data');
  let staticDir = installed ? path.join(installed.packageDir, 'out') : path.join(ROOT, 'out');
  if (options.privateStaticCopy) {
    staticDir = path.join(dir, 'static');
    await cp(path.join(ROOT, 'out'), staticDir, { recursive: true });
  }
  const extraArgs = options.args ?? [];
  let current = launch(0, dataDir, token, staticDir, extraArgs, installed);
  const url = await current.url;
  const port = Number(new URL(url).port);
  const adminToken = (await readFile(path.join(dataDir, 'admin-token'), 'utf8')).trim();
  const secrets = new Set([token, adminToken]);
  let log = '';
  const output = () => log + current.output();
  const halt = () => stopChild(current.child);
  const resume = async () => {
    log += current.output();
    current = launch(port, dataDir, token, staticDir, extraArgs, installed);
    await current.url;
  };
  const host: TestHost = {
    url,
    port,
    token,
    adminToken,
    dataDir,
    staticDir,
    output,
    async mintPairingCode() {
      const minted = PairingCodeResponseSchema.parse(
        await postJson(`${url}/api/admin/pairing-codes`, {}, { Authorization: `Bearer ${adminToken}` }),
      );
      secrets.add(minted.code);
      return minted;
    },
    async pairDevice(name = 'Work laptop') {
      const { code } = await host.mintPairingCode();
      const paired = PairResponseSchema.parse(
        await postJson(`${url}/api/pair`, { code, name, platform: 'Node · e2e' }),
      );
      secrets.add(paired.credential);
      return paired;
    },
    rememberSecret: (secret) => void secrets.add(secret),
    assertNoSecretsInOutput() {
      const printed = output();
      const leaked = [...secrets].filter((secret) => secret.length > 0 && printed.includes(secret));
      if (leaked.length > 0)
        throw new Error(`the host printed ${leaked.length} secret(s) (token, credential or code): R16.6`);
    },
    async restart() {
      await halt();
      await resume();
    },
    halt,
    resume,
    async crash() {
      const { child } = current;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      await stopChild(current.child);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return host;
}
