// A real `askaway acp -- node fake-acp-agent.mjs` for tests: the test is the editor on the proxy's stdio, the
// fake agent records every byte the proxy relays to it, and the proxy's RSS is read from /proc.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import { tempDir } from '../../../../host/test-support/test-host';
import { cliCommand } from '../../../test-support/run-cli';

export const FAKE_ACP_AGENT = path.join(import.meta.dirname, 'fake-acp-agent.mjs');

const WAIT = { timeout: 15_000, interval: 20 };

export interface AcpProcess {
  pid: number;
  /** One JSON-RPC message to the proxy, as the editor sends it. */
  send(message: unknown): void;
  /** Raw bytes to the proxy's stdin. */
  write(bytes: Buffer | string): void;
  /** Asks the fake agent to write these bytes to its stdout, exactly. */
  agentWrites(bytes: Buffer | string): void;
  /** What the editor read so far (kept only with `keep`, else empty), its length and sha256. */
  received(): Buffer;
  receivedBytes(): number;
  receivedHash(): string;
  /** The JSON messages the editor read, the lines that parse. */
  messages(): Record<string, unknown>[];
  /** Everything the agent read from the proxy. */
  agentRecord(): Buffer;
  stderr(): string;
  /** The editor stops and starts reading the proxy's stdout. */
  pauseReading(): void;
  resumeReading(): void;
  rssBytes(): number;
  /** Bytes the fake agent (the proxy's child) has written so far (/proc/<pid>/io): it stops while the proxy pauses it. */
  agentWroteBytes(): number;
  alive(): boolean;
  exited: Promise<number | string>;
  kill(): void;
}

export interface AcpProcessOptions {
  hub: { url: string; token: string };
  /** What `initialize` advertises for elicitation (`{ form: {} }`); none by default. */
  elicitation?: Record<string, unknown>;
  /** Keep what the editor reads (default), or only count and hash it (a flood). */
  keep?: boolean;
}

function procNumber(pid: number, file: string, pattern: RegExp): number {
  const match = pattern.exec(fs.readFileSync(`/proc/${pid}/${file}`, 'utf8'));
  return Number(match?.[1] ?? Number.NaN);
}

/** What the proxy's child, the agent, has written: `wchar` of /proc/<pid>/io. */
export function agentWrote(proxyPid: number): number {
  const children = fs.readFileSync(`/proc/${proxyPid}/task/${proxyPid}/children`, 'utf8').trim().split(' ');
  const agent = children.find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('fake-acp-agent'));
  return procNumber(Number(agent), 'io', /wchar:\s+(\d+)/);
}

/** The proxy between the test (editor) and the fake agent, its session open. */
export async function startAcpProcess(options: AcpProcessOptions): Promise<AcpProcess> {
  const dir = tempDir('askaway-acp-');
  const record = path.join(dir, 'agent-read.bin');
  fs.writeFileSync(record, '');
  const cli = cliCommand(['acp', '--', process.execPath, FAKE_ACP_AGENT]);
  const child: ChildProcessWithoutNullStreams = spawn(cli.command, cli.args, {
    cwd: cli.cwd,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      ASKAWAY_URL: options.hub.url,
      ASKAWAY_TOKEN: options.hub.token,
      ASKAWAY_DATA_DIR: dir,
      FAKE_ACP_RECORD: record,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // What the editor reads is kept until the session is open, then only counted without `keep`.
  let keep = true;
  const chunks: Buffer[] = [];
  let count = 0;
  const hash = createHash('sha256');
  let stderr = '';
  let exitedWith: number | string | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    count += chunk.length;
    hash.update(chunk);
    if (keep) chunks.push(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      exitedWith = code ?? signal ?? 'unknown';
      resolve(exitedWith);
    }),
  );
  const received = () => Buffer.concat(chunks);
  const messages = () =>
    received()
      .toString('utf8')
      .split('\n')
      .flatMap((line) => {
        try {
          const value = JSON.parse(line) as unknown;
          return typeof value === 'object' && value !== null ? [value as Record<string, unknown>] : [];
        } catch {
          return [];
        }
      });
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const proxy: AcpProcess = {
    pid: child.pid ?? -1,
    send,
    write: (bytes) => child.stdin.write(bytes),
    agentWrites: (bytes) =>
      send({ jsonrpc: '2.0', method: '_fake/write', params: { base64: Buffer.from(bytes).toString('base64') } }),
    received,
    receivedBytes: () => count,
    receivedHash: () => hash.copy().digest('hex'),
    messages,
    agentRecord: () => fs.readFileSync(record),
    stderr: () => stderr,
    pauseReading: () => child.stdout.pause(),
    resumeReading: () => child.stdout.resume(),
    rssBytes: () => procNumber(proxy.pid, 'status', /VmRSS:\s+(\d+)/) * 1024,
    agentWroteBytes: () => agentWrote(proxy.pid),
    alive: () => exitedWith === undefined,
    exited,
    kill: () => child.kill('SIGKILL'),
  };
  // The editor opens a session as Zed does.
  send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: 1,
      clientCapabilities: {
        fs: { readTextFile: true },
        ...(options.elicitation ? { elicitation: options.elicitation } : {}),
      },
    },
  });
  send({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/home/ada/shop', mcpServers: [] } });
  await vi.waitFor(() => {
    if (!proxy.messages().some((message) => message.id === 1 && message.result !== undefined))
      throw new Error(`no session yet; the proxy said: ${stderr}`);
  }, WAIT);
  keep = options.keep ?? true;
  return proxy;
}

/** Waits until `check` holds, for up to 15 s. */
export function waitUntil(what: string, check: () => boolean, timeout = WAIT.timeout): Promise<void> {
  return vi.waitFor(
    () => {
      if (!check()) throw new Error(`timed out waiting until ${what}`);
    },
    { ...WAIT, timeout },
  );
}
