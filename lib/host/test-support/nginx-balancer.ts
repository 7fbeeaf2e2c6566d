import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * nginx in front of hub replicas, run from docs/team-hub/nginx.conf byte for byte: a test writes only the two files
 * that config includes (the replicas' addresses, and where it listens and logs), in a temp prefix of its own. For
 * vitest and Playwright alike (no test runner imported here).
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
export const NGINX_CONF = path.join(ROOT, 'docs', 'team-hub', 'nginx.conf');
const STOP_TIMEOUT_MS = 10_000;

/** ASKAWAY_NGINX, else Debian's /usr/sbin/nginx, else an `nginx` on PATH; undefined when there is none. */
export function findNginx(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  if (env.ASKAWAY_NGINX) return fs.existsSync(env.ASKAWAY_NGINX) ? env.ASKAWAY_NGINX : undefined;
  const found = ['/usr/sbin/nginx', '/usr/local/sbin/nginx'].find((candidate) => fs.existsSync(candidate));
  if (found) return found;
  const onPath = spawnSync('/bin/sh', ['-c', 'command -v nginx'], {
    encoding: 'utf8',
    env: { ...process.env, PATH: env.PATH ?? '' },
  });
  return onPath.status === 0 && onPath.stdout.trim() !== '' ? onPath.stdout.trim() : undefined;
}

/**
 * Why the balancer tests cannot run here, or undefined when they can. In CI a missing nginx is an error (the tests
 * must not pass by skipping); elsewhere they are skipped with this reason.
 */
export function nginxMissing(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  if (findNginx(env)) return undefined;
  const reason =
    `nginx is not installed${env.ASKAWAY_NGINX ? ` at ASKAWAY_NGINX=${env.ASKAWAY_NGINX}` : ''} (Debian: ` +
    'apt-get install nginx-light, or set ASKAWAY_NGINX to an nginx binary): the team hub load balancer tests need it';
  if (env.CI) throw new Error(reason);
  return reason;
}

/** A port nothing listens on now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface AccessLine {
  request: string;
  status: number;
  /** Every replica address nginx tried, in order (`127.0.0.1:4417, 127.0.0.1:4418` after a failed try). */
  replicas: string[];
  affinity: string;
}

export interface NginxBalancer {
  url: string;
  port: number;
  pid: number;
  /** The access log so far, one entry per finished request (a WebSocket's line is written when it closes). */
  accessLog(): AccessLine[];
  /**
   * Which replica (`127.0.0.1:<port>`) this affinity key (the `askaway_replica` cookie) reaches now: one request
   * through nginx, read back from its access log.
   */
  replicaFor(affinity: string): Promise<string>;
  /** A fresh affinity key that reaches `replica` now (tried key by key; each reaches a replica at random). */
  affinityFor(replica: string): Promise<string>;
  output(): string;
  stop(): Promise<void>;
}

export const AFFINITY_COOKIE = 'askaway_replica';

/** Starts nginx on `port` (127.0.0.1) in front of `replicas` (`host:port` each) and waits until it accepts. */
export async function startNginxBalancer(options: {
  port: number;
  replicas: readonly string[];
  /** Where its prefix goes: a temp dir of its own inside, removed by stop(). */
  tmpRoot?: string;
}): Promise<NginxBalancer> {
  const nginx = findNginx();
  if (!nginx) throw new Error(nginxMissing() ?? 'nginx is not installed');
  const dir = fs.mkdtempSync(path.join(options.tmpRoot ?? os.tmpdir(), 'askaway-lb-nginx-'));
  const accessLogPath = path.join(dir, 'access.log');
  fs.copyFileSync(NGINX_CONF, path.join(dir, 'nginx.conf'));
  fs.writeFileSync(path.join(dir, 'replicas.conf'), options.replicas.map((replica) => `server ${replica};\n`).join(''));
  fs.writeFileSync(
    path.join(dir, 'server.conf'),
    [
      `listen 127.0.0.1:${options.port};`,
      `access_log ${accessLogPath} askaway;`,
      // Not Debian's /var/lib/nginx: the tests may run as a user who cannot write there.
      `client_body_temp_path ${path.join(dir, 'body')};`,
      `proxy_temp_path ${path.join(dir, 'proxy')};`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    nginx,
    ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', `daemon off; pid ${path.join(dir, 'nginx.pid')};`],
    // Its stdout is /dev/null: the config's own access log (/dev/stdout) cannot be opened on the socket a pipe
    // would be, and the server's is in the prefix.
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  try {
    await untilListening(options.port, exited, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const accessLog = (): AccessLine[] =>
    fs.existsSync(accessLogPath) ? fs.readFileSync(accessLogPath, 'utf8').split('\n').flatMap(parseAccessLine) : [];
  const replicaFor = async (affinity: string): Promise<string> => {
    const probe = `/?askaway-balancer-probe=${randomBytes(8).toString('hex')}`;
    const response = await fetch(`${url}${probe}`, { headers: { Cookie: `${AFFINITY_COOKIE}=${affinity}` } });
    await response.arrayBuffer();
    // nginx writes the line once the response is out: wait for it, not for a fixed time.
    const deadline = Date.now() + 5_000;
    for (;;) {
      const replica = accessLog()
        .find((entry) => entry.request.includes(probe))
        ?.replicas.at(-1);
      if (replica) return replica;
      if (Date.now() > deadline) throw new Error(`nginx logged no line for ${probe} within 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return {
    url,
    port: options.port,
    pid: child.pid ?? -1,
    accessLog,
    replicaFor,
    async affinityFor(replica) {
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const affinity = randomBytes(16).toString('hex');
        if ((await replicaFor(affinity)) === replica) return affinity;
      }
      throw new Error(`no affinity key of 100 reached ${replica}: is it one of the balancer's replicas?`);
    },
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // SIGTERM: nginx's fast shutdown, which closes open WebSockets instead of waiting for them (SIGQUIT would).
        child.kill('SIGTERM');
        const stopped = await Promise.race([
          exited.then(() => true),
          new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_TIMEOUT_MS).unref()),
        ]);
        if (!stopped) child.kill('SIGKILL');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const ACCESS_LINE = /"([^"]*)" (\d{3}) \d+ replica=(\S+(?:, \S+)*) affinity=([0-9a-f]+)/;

function parseAccessLine(text: string): AccessLine[] {
  const match = ACCESS_LINE.exec(text);
  if (!match) return [];
  const [, request = '', status = '0', replicas = '', affinity = ''] = match;
  return [{ request, status: Number(status), replicas: replicas.split(', '), affinity }];
}

/** Resolves once something accepts on `port`; rejects with nginx's own words if it exits first. */
async function untilListening(port: number, exited: Promise<void>, output: () => string): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (gone) throw new Error(`nginx exited before listening on ${port}:\n${output()}`);
    if (await accepts(port)) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port} within 15 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
