import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './figures';
import { type ProfileReply, type UsageReport } from './usage-reporter';

const REPORTER = path.join(import.meta.dirname, 'usage-reporter.ts');
/** Preloads tsx (for the reporter and source runs) and the usage reporter into a child. */
export const REPORTER_ARGS = ['--import', 'tsx', '--import', REPORTER];
const DIST_CLI = path.join(ROOT, 'dist', 'cli.js');
const SOURCE_CLI = path.join(ROOT, 'bin', 'cli.ts');

export const BENCH_TOKEN = 'bench-token-0123456789';

export interface HostProcess {
  url: string;
  port: number;
  pid: number;
  token: string;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  /** The host's own process.cpuUsage() (user + system, µs) and memory, via IPC. */
  usage(): Promise<UsageReport>;
  /** A CPU profile of the child from now (see cpu-profiler.ts)… */
  startProfile(): Promise<void>;
  /** …until now, written to `file`. */
  stopProfile(file: string): Promise<void>;
  exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): Promise<number | string>;
  /** SIGTERM and wait; SIGKILL after 5 s. */
  stop(): Promise<void>;
}

export function tempDir(prefix = 'askaway-bench-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * `askaway start --no-demo` in a child process: the built `dist/cli.js` when it
 * exists (what users run; `npm run bench` builds first), else from source with tsx.
 * BENCH_HOST=source or BENCH_HOST=dist forces one; BENCH_HOST=<file>.js runs another build (say, the previous
 * commit's, for a before/after in one session).
 */
export function hostCommand(): string[] {
  const mode = process.env.BENCH_HOST ?? (fs.existsSync(DIST_CLI) ? 'dist' : 'source');
  const extra = (process.env.BENCH_HOST_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  if (mode.endsWith('.js')) {
    const file = path.resolve(ROOT, mode);
    if (!fs.existsSync(file)) throw new Error(`BENCH_HOST=${mode} does not exist`);
    return [...extra, ...REPORTER_ARGS, file];
  }
  if (mode === 'dist' && !fs.existsSync(DIST_CLI))
    throw new Error('BENCH_HOST=dist but dist/cli.js does not exist: run npm run build');
  // Diagnostics, e.g. BENCH_HOST_NODE_ARGS=--cpu-prof to profile the host.
  return [...extra, ...REPORTER_ARGS, mode === 'dist' ? DIST_CLI : SOURCE_CLI];
}

/**
 * `--static-dir` for BENCH_APP_STATIC_DIR: another build of the app (say, main's out/) served by the same host,
 * to time it with the same script; nothing when it is unset.
 */
export function appStaticDirArgs(): string[] {
  const dir = process.env.BENCH_APP_STATIC_DIR;
  return dir ? ['--static-dir', dir] : [];
}

export interface StartHostOptions {
  dataDir?: string;
  port?: number;
  token?: string;
  extraArgs?: string[];
  env?: Record<string, string>;
  /** Runs the Codex bridge for these homes (off by default). */
  codexHomes?: string[];
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Spawns a host and waits for `Local: <url>`; rejects with its output if it exits first. */
export async function startHost(options: StartHostOptions = {}): Promise<HostProcess> {
  const dataDir = options.dataDir ?? tempDir();
  const token = options.token ?? BENCH_TOKEN;
  const args = [
    ...hostCommand(),
    'start',
    '--port',
    String(options.port ?? 0),
    '--no-demo',
    // No Codex bridge, unless the caller names a Codex home for one.
    ...(options.codexHomes
      ? options.codexHomes.flatMap((home) => ['--codex-home', home])
      : options.extraArgs?.includes('--codex-home')
        ? []
        : ['--no-codex']),
    '--data-dir',
    dataDir,
    // The benchmarks hold far more waiting questions on one machine than a person would (R13.2, R13.3).
    '--max-pending',
    '20000',
    ...(options.extraArgs ?? []),
  ];
  const server = await spawnServer(args, { ASKAWAY_TOKEN: token, NO_COLOR: '1', ...options.env });
  return { ...server, token, dataDir };
}

export type ServerProcess = Omit<HostProcess, 'token' | 'dataDir'>;

/** Runs `node <args>` with the usage reporter preloaded and waits until it prints `Local: <url>`. */
export async function spawnServer(args: string[], env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /Local:\s+(https?:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        child.stdout?.off('data', check);
        resolve(match[1].replace(/\/$/, ''));
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening:\n${output}`)));
  });

  let nextId = 1;
  /** One IPC request to the preloaded reporter; the reply carries the same id and type. */
  const request = <Reply extends { type: string; id: number }>(
    message: Record<string, unknown>,
    timeoutMs = 10_000,
  ): Promise<Reply> =>
    new Promise<Reply>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        child.off('message', onMessage);
        reject(new Error(`the child did not answer ${String(message.type)} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      const onMessage = (raw: unknown) => {
        const reply = raw as Reply;
        if (reply?.type !== message.type || reply.id !== id) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(reply);
      };
      child.on('message', onMessage);
      child.send({ ...message, id });
    });
  const usage = () => request<UsageReport>({ type: 'usage' });
  const profile = async (action: 'start' | 'stop', file?: string) => {
    const reply = await request<ProfileReply>({ type: 'profile', action, file }, 60_000);
    if (reply.error) throw new Error(`profile ${action}: ${reply.error}`);
  };

  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid ?? -1,
    child,
    output: () => output,
    usage,
    startProfile: () => profile('start'),
    stopProfile: (file) => profile('stop', file),
    exited,
    kill,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
  };
}

let clockTicks: number | undefined;

/**
 * CPU time (µs) and RSS of any process from /proc: readable even while the process is
 * too busy to answer over IPC (Linux only).
 */
export function procUsage(pid: number): { cpuMicros: number; rssBytes: number; at: number } {
  clockTicks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { cpuMicros: (ticks / clockTicks) * 1e6, rssBytes: rssKb * 1024, at: performance.now() };
}

/** The most memory a process has held (VmHWM) from /proc, in bytes (Linux only). */
export function procPeakBytes(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
}
