import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { makeTestCertificates } from '../../test-support/tls-cert';

const run = promisify(execFile);

/** A PostgreSQL server of the tests' own, in a temp dir, listening on 127.0.0.1 only. */
export interface PgCluster {
  /** The superuser's URL (`postgres://askaway:<password>@127.0.0.1:<port>/postgres`). */
  adminUrl: string;
  /** The CA that signed the server's certificate (for 127.0.0.1 and localhost): TLS is on beside plain TCP. */
  caFile: string;
  /** The PostgreSQL major version the binaries report. */
  version: string;
  /** Stops the server (by PID when pg_ctl does not manage to) and deletes its files. */
  stop(): Promise<void>;
}

/**
 * The PostgreSQL binaries: ASKAWAY_PG_BIN, else the newest /usr/lib/postgresql/<major>/bin (Debian's
 * layout), else the folder of an `initdb` on PATH.
 */
export function findPgBin(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env.ASKAWAY_PG_BIN;
  if (chosen) {
    if (!fs.existsSync(path.join(chosen, 'initdb'))) throw new Error(`ASKAWAY_PG_BIN=${chosen} holds no initdb`);
    return chosen;
  }
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((name) => /^\d+$/.test(name) && fs.existsSync(path.join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors[0]) return path.join(root, majors[0], 'bin');
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    const initdb = path.join(dir, 'initdb');
    if (dir && fs.existsSync(initdb)) return path.dirname(fs.realpathSync(initdb));
  }
  throw new Error(
    'No PostgreSQL found for the tests: install it (Debian: apt-get install postgresql-15) or set ASKAWAY_PG_BIN to its bin folder',
  );
}

/**
 * initdb refuses to run as root, and so does the server: as root, both run as the `postgres` user (which
 * Debian's package creates) in a folder handed to it; as anyone else, as that user.
 */
function asServerUser(): string[] {
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
}

async function runAsServerUser(command: string, args: string[], timeoutMs: number): Promise<void> {
  const [first, ...rest] = [...asServerUser(), command, ...args];
  if (!first) throw new Error('nothing to run');
  await run(first, rest, { timeout: timeoutMs, env: serverEnv() });
}

/** Settings of the caller's own PostgreSQL client (PGHOST, PGPORT, …) must not steer initdb or pg_ctl. */
function serverEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('PG')) delete env[name];
  return env;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface PgClusterOptions {
  /**
   * More server settings (`name=value`), after the defaults and so winning over them: the benchmark turns
   * durability back on and loads pg_stat_statements.
   */
  settings?: readonly string[];
}

/**
 * Starts a throwaway cluster: initdb with a generated password (scram-sha-256 for every connection), then
 * pg_ctl start on a free port of 127.0.0.1 with no Unix socket, accepting TLS (a certificate from a throwaway CA)
 * and plain connections alike. Durability is off (fsync, full page writes) unless `settings` turn it on:
 * the cluster lives as long as the test run, and its files are deleted at the end.
 */
export async function startPgCluster(options: PgClusterOptions = {}): Promise<PgCluster> {
  const bin = findPgBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askaway-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const password = randomBytes(18).toString('base64url');
  const pwfile = path.join(dir, 'pwfile');
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  const tlsDir = path.join(dir, 'tls');
  fs.mkdirSync(tlsDir);
  const tls = makeTestCertificates(tlsDir);
  // The server refuses a key others may read.
  fs.chmodSync(tls.keyFile, 0o600);
  if (asServerUser().length > 0) await run('chown', ['-R', 'postgres:', dir]);
  let started = false;
  const stop = async () => {
    if (started) await stopServer(bin, data);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await runAsServerUser(
      path.join(bin, 'initdb'),
      [
        '-D',
        data,
        '-U',
        'askaway',
        `--pwfile=${pwfile}`,
        '-A',
        'scram-sha-256',
        '-E',
        'UTF8',
        '--no-locale',
        '--no-sync',
      ],
      60_000,
    );
    fs.rmSync(pwfile);
    const port = await freePort();
    const settings = [
      '-c listen_addresses=127.0.0.1',
      `-c port=${port}`,
      "-c unix_socket_directories=''",
      '-c max_connections=200',
      '-c ssl=on',
      `-c ssl_cert_file=${tls.certFile}`,
      `-c ssl_key_file=${tls.keyFile}`,
      '-c fsync=off',
      '-c full_page_writes=off',
      '-c synchronous_commit=off',
      ...(options.settings ?? []).map((setting) => `-c ${setting}`),
    ].join(' ');
    started = true;
    await runAsServerUser(
      path.join(bin, 'pg_ctl'),
      ['-D', data, '-l', logFile, '-w', '-t', '60', '-o', settings, 'start'],
      90_000,
    );
    const { stdout } = await run(path.join(bin, 'postgres'), ['--version']);
    return {
      adminUrl: `postgres://askaway:${password}@127.0.0.1:${port}/postgres`,
      caFile: tls.caFile,
      version: /\d+(\.\d+)?/.exec(stdout)?.[0] ?? stdout.trim(),
      stop,
    };
  } catch (error) {
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2_000) : '';
    await stop().catch(() => undefined);
    throw new Error(`Cannot start a PostgreSQL test cluster with ${bin}: ${String(error)}${log ? `\n${log}` : ''}`, {
      cause: error,
    });
  }
}

/** pg_ctl's fast shutdown; if that fails or hangs, SIGKILL the postmaster by the PID in its pid file. */
async function stopServer(bin: string, data: string): Promise<void> {
  const pidFile = path.join(data, 'postmaster.pid');
  const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]) : NaN;
  try {
    await runAsServerUser(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '20', 'stop'], 30_000);
  } catch {
    if (Number.isSafeInteger(pid) && pid > 0) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}
