import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { readJoinedHub } from './joined-hub';

/** Where the host listens when nothing else says so. */
export const DEFAULT_HOST_PORT = 4417;
export const DEFAULT_HOST_URL = `http://127.0.0.1:${DEFAULT_HOST_PORT}`;
export const START_HINT =
  'Start it with `askaway start` (or `npm start` in the checkout) (or set ASKAWAY_URL to a running host).';

type Env = Record<string, string | undefined>;

/** `ASKAWAY_DATA_DIR`, else `~/.askaway` — the same rule the host uses. */
export function resolveDataDir(env: Env = process.env): string {
  const fromEnv = env.ASKAWAY_DATA_DIR?.trim();
  return fromEnv ? path.resolve(fromEnv) : path.join(homedir(), '.askaway');
}

/** What a running host records in `<dataDir>/host.json`. */
export interface HostInfo {
  url: string;
  pid?: number;
  port?: number;
  version?: string;
}

/** Reads `<dataDir>/host.json`; null when it is missing or unreadable (never throws). */
export function readHostInfo(dataDir: string): HostInfo | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path.join(dataDir, 'host.json'), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return null;
    const record = parsed as Record<string, unknown>;
    if (typeof record.url !== 'string' || record.url.length === 0) return null;
    return {
      url: record.url,
      pid: typeof record.pid === 'number' ? record.pid : undefined,
      port: typeof record.port === 'number' ? record.port : undefined,
      version: typeof record.version === 'string' ? record.version : undefined,
    };
  } catch {
    return null;
  }
}

/** Why a runtime talks to the host it does (R17.8): what `askaway status` prints. */
export type HostSource = 'env' | 'joined' | 'local' | 'default';

/** The host a runtime on this machine talks to, with what it proves itself with. */
export interface HostTarget {
  url: string;
  /** The agent token or this machine's credential; null when there is none. */
  token: string | null;
  source: HostSource;
  /** Set when the target is the hub this machine joined: names for one-line messages (R17.6). */
  hub?: { name: string; machineName: string };
  /** `<dataDir>/hub.json` exists but cannot be used; the target fell through to the next rule. */
  joinProblem?: string;
}

/**
 * Which host, in this order (R17.1, R17.8):
 * 1. `ASKAWAY_URL` (with `ASKAWAY_TOKEN`, else the joined credential when the URL is the joined
 *    hub's, else `<dataDir>/token`): an explicit environment always wins;
 * 2. the hub this machine joined (`<dataDir>/hub.json`, from `askaway join`), with its credential
 *    (`ASKAWAY_TOKEN` still overrides the credential);
 * 3. the host running on this machine (`<dataDir>/host.json`), with `<dataDir>/token`;
 * 4. `http://127.0.0.1:4417` with `<dataDir>/token`.
 */
export function resolveHostTarget(env: Env = process.env): HostTarget {
  const dataDir = resolveDataDir(env);
  const envUrl = env.ASKAWAY_URL?.trim();
  const envToken = env.ASKAWAY_TOKEN?.trim() || null;
  const joined = readJoinedHub(dataDir);
  const hub = joined.kind === 'joined' ? joined.hub : undefined;
  const joinProblem = joined.kind === 'unreadable' ? { joinProblem: joined.reason } : {};
  const named = hub ? { hub: { name: hub.hubName, machineName: hub.machine.name } } : {};
  if (envUrl) {
    const url = stripTrailingSlash(envUrl);
    const sameHub = hub !== undefined && stripTrailingSlash(hub.url) === url;
    const token = envToken ?? (sameHub ? hub.credential : readLocalToken(dataDir));
    return { url, token, source: 'env', ...(sameHub ? named : {}), ...joinProblem };
  }
  if (hub) return { url: stripTrailingSlash(hub.url), token: envToken ?? hub.credential, source: 'joined', ...named };
  const info = readHostInfo(dataDir);
  return {
    url: stripTrailingSlash(info?.url ?? DEFAULT_HOST_URL),
    token: envToken ?? readLocalToken(dataDir),
    source: info ? 'local' : 'default',
    ...joinProblem,
  };
}

/** The host's URL by the rules of `resolveHostTarget`. */
export function resolveHostAddress(env: Env = process.env): string {
  return resolveHostTarget(env).url;
}

/** The token by the rules of `resolveHostTarget`; null when there is none. */
export function resolveToken(env: Env = process.env): string | null {
  return resolveHostTarget(env).token;
}

/** `<dataDir>/token`, the agent token of a host on this machine; null when missing or empty. */
function readLocalToken(dataDir: string): string | null {
  try {
    const token = readFileSync(path.join(dataDir, 'token'), 'utf8').trim();
    return token.length > 0 ? token : null;
  } catch {
    return null;
  }
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
