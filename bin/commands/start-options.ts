import fs from 'node:fs';
import { homedir, hostname } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEFAULT_MAX_PENDING_PER_MACHINE,
  errorMessage,
  machineNameFrom,
  NewMachineNameSchema,
} from '../../lib/contracts';
import { DEFAULT_BIND_HOST, DEFAULT_PAIR_TTL_MS, DEFAULT_PORT } from '../../lib/host';
import { defaultCodexHome } from '../../lib/runtime/agents/codex/codex-home';
import { parseDuration } from '../../lib/runtime/duration';
import { parseTrustedProxy } from '../../lib/host/http/client-address';
import { passwordOf } from '../../lib/host/store/pg/pg-errors';
import { pgUrlProblem } from '../../lib/host/store/pg/pg-url';
import { OIDC_USAGE, parseOidcOptions, refuseSecretFlag } from './oidc-options';
import { type OidcSettings } from '../../lib/host/people/oidc-settings';
import { UsageError } from './types';

export const START_USAGE = `Usage: askaway start [options]

Serves the Askaway web app and the runtime/remote endpoints on one port.

Options:
  --port <n>          Port to listen on (env ASKAWAY_PORT, default ${DEFAULT_PORT}; 0 picks a free one)
  --host <address>    Interface to bind (default ${DEFAULT_BIND_HOST}; e.g. 0.0.0.0 for your LAN)
  --data-dir <dir>    Tokens, event log and host.json (env ASKAWAY_DATA_DIR, default ~/.askaway)
  --database <url>    A team hub's log: the events and credentials in PostgreSQL
                      (postgres://user@host:5432/db?sslmode=verify-full) instead of the data dir's
                      SQLite file; env ASKAWAY_DATABASE_URL. Give the password in PGPASSWORD or
                      ~/.pgpass, not in the flag: a command line shows in ps
${OIDC_USAGE}
  --no-demo           Do not run the embedded demo agent
  --no-codex          Do not run the Codex bridge (it carries Codex's prompts once a Codex daemon runs)
  --codex-home <dir>  A Codex home for the bridge (repeatable; default CODEX_HOME, else ~/.codex)
  --tls-cert <file>   PEM certificate: serve HTTPS (needs --tls-key)
  --tls-key <file>    PEM private key for --tls-cert
  --public-url <url>  Address phones use (tunnel/proxy); used in the pairing link and QR code
  --tailscale         Serve this port over your tailnet with its certificate (\`tailscale serve\`):
                      https://<machine>.<tailnet>.ts.net becomes the public URL; undone on stop
  --allow-origin <o>  Extra browser origin allowed to connect (repeatable; e.g. a dev server)
  --allowed-host <n>  Another name this host answers for, e.g. its LAN name (repeatable; loopback,
                      its addresses and the --public-url host always work; others get 421)
  --trusted-proxy <a> A load balancer or proxy in front of this hub, an address or a CIDR block
                      (repeatable; env ASKAWAY_TRUSTED_PROXIES, comma-separated): the client
                      address it forwards (X-Forwarded-For) is believed, for limits and logs
  --static-dir <dir>  The built web app (default out/ next to the package)
  --stale-after <d>   Withdraw a question no agent has re-announced for this long (default 5m; min 30s)
  --pair-ttl <d>      How long a pairing link or join code works (default ${DEFAULT_PAIR_TTL_MS / 60_000}m; 1s to 24h)
  --name <name>       This machine's name on the phone (env ASKAWAY_MACHINE_NAME, default its host name)
  --max-pending <n>   Questions one machine may have waiting at once (default ${DEFAULT_MAX_PENDING_PER_MACHINE})
  --allow-private-push
                      Let paired devices subscribe Web Push at a push service on this machine or
                      the LAN, plain http too (a self-hosted one); without it only https on public
                      addresses
  -h, --help          Show this help

Environment: ASKAWAY_TOKEN overrides the stored agent token.

Other machines join this host with \`askaway invite\` (here) and \`askaway join\` (there).
`;

export interface StartOptions {
  port: number;
  host: string;
  dataDir: string;
  /** A team hub's PostgreSQL log (R20.10); undefined: SQLite in the data dir. */
  databaseUrl?: string;
  /** The password is in the --database flag itself, where `ps` shows it to every user of the machine. */
  databasePasswordInFlag: boolean;
  demo: boolean;
  /** The Codex homes the embedded Codex bridge serves (R18.14); empty with --no-codex. */
  codexHomes: string[];
  tls?: { cert: Buffer; key: Buffer };
  publicUrl?: string;
  /** Serve over the tailnet (`tailscale serve`) and take the public URL from its name. */
  tailscale: boolean;
  allowedOrigins: string[];
  /** Names besides loopback, its addresses and the public URL's that the host answers for (R12.4). */
  allowedHosts: string[];
  trustedProxies: string[];
  staticDir: string;
  staleAfterMs?: number;
  pairTtlMs: number;
  token?: string;
  /** This machine's name: the hub's own machine and "removed from <host>" (R17.3). */
  hostName: string;
  /** Interactions one machine may have waiting (R12.7). */
  maxPending: number;
  /** Devices may subscribe push services on this machine or the LAN (R12.20): the owner's choice, never a device's. */
  allowPrivatePush: boolean;
  /** A team hub's people sign in at this provider (R21.1); undefined: the hub is one person's. */
  oidc?: OidcSettings;
  help: boolean;
}

type Env = Record<string, string | undefined>;

/** Parses `askaway start` flags; every problem is a UsageError with a clear message. */
export function parseStartOptions(argv: string[], env: Env, packageRoot: string): StartOptions {
  refuseSecretFlag(argv);
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        database: { type: 'string' },
        'no-demo': { type: 'boolean' },
        'no-codex': { type: 'boolean' },
        'codex-home': { type: 'string', multiple: true },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'public-url': { type: 'string' },
        tailscale: { type: 'boolean' },
        'allow-origin': { type: 'string', multiple: true },
        'allowed-host': { type: 'string', multiple: true },
        'trusted-proxy': { type: 'string', multiple: true },
        'static-dir': { type: 'string' },
        'stale-after': { type: 'string' },
        'pair-ttl': { type: 'string' },
        name: { type: 'string' },
        'max-pending': { type: 'string' },
        'allow-private-push': { type: 'boolean' },
        'oidc-issuer': { type: 'string' },
        'oidc-client-id': { type: 'string' },
        'oidc-client-secret-file': { type: 'string' },
        'oidc-owner': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
  const tlsCert = values['tls-cert'];
  const tlsKey = values['tls-key'];
  if ((tlsCert === undefined) !== (tlsKey === undefined)) throw new UsageError('--tls-cert and --tls-key go together');
  const publicUrl = values['public-url'];
  // tailscale serve terminates TLS with the tailnet's certificate and proxies plain http to this port.
  if (values.tailscale === true && tlsCert !== undefined)
    throw new UsageError('--tailscale brings its own certificate (tailscale serve); leave out --tls-cert/--tls-key');
  if (publicUrl !== undefined && !/^https?:\/\/[^/\s]+/i.test(publicUrl)) {
    throw new UsageError(`--public-url must be an http(s) URL, got "${publicUrl}"`);
  }
  const host = values.host ?? DEFAULT_BIND_HOST;
  if (host.trim().length === 0) throw new UsageError('--host needs an address');
  const dataDir = values['data-dir'] ?? env.ASKAWAY_DATA_DIR?.trim();
  if (values['no-codex'] === true && values['codex-home'] !== undefined)
    throw new UsageError('--no-codex and --codex-home contradict each other');
  const databaseUrl = parseDatabaseUrl(values.database, env.ASKAWAY_DATABASE_URL);
  return {
    port: parsePort(values.port ?? env.ASKAWAY_PORT),
    host,
    dataDir: dataDir ? path.resolve(dataDir) : path.join(homedir(), '.askaway'),
    databaseUrl,
    databasePasswordInFlag: values.database !== undefined && passwordOf(values.database) !== undefined,
    demo: values['no-demo'] !== true,
    codexHomes:
      values['no-codex'] === true
        ? []
        : (values['codex-home'] ?? [defaultCodexHome(env)]).map((home) => path.resolve(home)),
    tls:
      tlsCert !== undefined && tlsKey !== undefined
        ? { cert: readPem(tlsCert, '--tls-cert'), key: readPem(tlsKey, '--tls-key') }
        : undefined,
    publicUrl,
    tailscale: values.tailscale === true,
    allowedOrigins: values['allow-origin'] ?? [],
    allowedHosts: (values['allowed-host'] ?? []).map(parseAllowedHost),
    trustedProxies: parseTrustedProxies(values['trusted-proxy'], env.ASKAWAY_TRUSTED_PROXIES),
    staticDir: path.resolve(values['static-dir'] ?? path.join(packageRoot, 'out')),
    staleAfterMs: parseStaleAfter(values['stale-after']),
    pairTtlMs: parsePairTtl(values['pair-ttl']),
    token: env.ASKAWAY_TOKEN?.trim() || undefined,
    hostName: parseName(values.name ?? env.ASKAWAY_MACHINE_NAME),
    maxPending: parseMaxPending(values['max-pending']),
    allowPrivatePush: values['allow-private-push'] === true,
    oidc: parseOidcOptions(
      {
        issuer: values['oidc-issuer'],
        clientId: values['oidc-client-id'],
        secretFile: values['oidc-client-secret-file'],
        owner: values['oidc-owner'],
      },
      env,
    ),
    help: values.help === true,
  };
}

/** `--trusted-proxy` (repeatable) wins over ASKAWAY_TRUSTED_PROXIES (comma-separated); each one checked. */
function parseTrustedProxies(flags: string[] | undefined, fromEnv: string | undefined): string[] {
  const source = flags === undefined ? 'ASKAWAY_TRUSTED_PROXIES' : '--trusted-proxy';
  const values = flags ?? (fromEnv ?? '').split(',').filter((value) => value.trim() !== '');
  return values.map((value) => {
    try {
      parseTrustedProxy(value);
      return value.trim();
    } catch (error) {
      throw new UsageError(`${source}: ${errorMessage(error)}`);
    }
  });
}

/** `--database` wins over ASKAWAY_DATABASE_URL; an empty one is an error, not SQLite. The message never quotes the URL. */
function parseDatabaseUrl(flag: string | undefined, fromEnv: string | undefined): string | undefined {
  const url = flag ?? (fromEnv?.trim() || undefined);
  if (url === undefined) return undefined;
  const source = flag === undefined ? 'ASKAWAY_DATABASE_URL' : '--database';
  if (url.trim() === '') throw new UsageError(`${source} needs a postgres:// URL`);
  const problem = pgUrlProblem(url);
  if (problem) throw new UsageError(`${source} must be a postgres:// URL: ${problem}`);
  return url;
}

/** Runtimes re-announce every second and may be away for a while (a laptop lid): at least 30 s. */
function parseStaleAfter(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value);
  if (ms === null || ms < 30_000)
    throw new UsageError(`--stale-after must be a duration of at least 30s (e.g. 10m), got "${value}"`);
  return ms;
}

/** A pairing link is a secret on a screen: short-lived, but long enough to walk to the phone. */
function parsePairTtl(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PAIR_TTL_MS;
  const ms = parseDuration(value);
  if (ms === null || ms < 1_000 || ms > 24 * 3_600_000)
    throw new UsageError(`--pair-ttl must be a duration from 1s to 24h (e.g. 10m), got "${value}"`);
  return ms;
}

function parseName(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return machineNameFrom(hostname());
  const parsed = NewMachineNameSchema.safeParse(value);
  if (!parsed.success) throw new UsageError(`--name must be 1 to 64 printable characters, got "${value}"`);
  return parsed.data;
}

/** A host name or an address as it appears in a Host header, without a scheme, port or path. */
function parseAllowedHost(value: string): string {
  const name = value.trim().toLowerCase();
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?)$/.test(name))
    throw new UsageError(`--allowed-host must be a host name or an address (no scheme, port or path), got "${value}"`);
  return name;
}

function parseMaxPending(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_PENDING_PER_MACHINE;
  const count = Number(value);
  if (!/^\d+$/.test(value.trim()) || count < 1 || count > 100_000)
    throw new UsageError(`--max-pending must be a number from 1 to 100000, got "${value}"`);
  return count;
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_PORT;
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65_535)
    throw new UsageError(`--port must be a number from 0 to 65535, got "${value}"`);
  return port;
}

function readPem(file: string, flag: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}
