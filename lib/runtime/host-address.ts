import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

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

/** `ASKAWAY_URL`, else the url the running host recorded, else the default local address. */
export function resolveHostAddress(env: Env = process.env): string {
  const fromEnv = env.ASKAWAY_URL?.trim();
  if (fromEnv) return stripTrailingSlash(fromEnv);
  const info = readHostInfo(resolveDataDir(env));
  return stripTrailingSlash(info?.url ?? DEFAULT_HOST_URL);
}

/** `ASKAWAY_TOKEN`, else `<dataDir>/token`; null when neither exists. */
export function resolveToken(env: Env = process.env): string | null {
  const fromEnv = env.ASKAWAY_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  try {
    const token = readFileSync(path.join(resolveDataDir(env), 'token'), 'utf8').trim();
    return token.length > 0 ? token : null;
  } catch {
    return null;
  }
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
