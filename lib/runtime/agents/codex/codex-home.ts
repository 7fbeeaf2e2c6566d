// Where a Codex home keeps its shared app-server daemon (measured on Codex 0.171.0).
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import path from 'node:path';
import { isRecord } from '../../../contracts';
import { readRegularText } from '../../safe-file';

export { processAlive } from '../../process-alive';

type Env = Record<string, string | undefined>;

/** `CODEX_HOME`, else `~/.codex`: the home Codex itself uses. */
export function defaultCodexHome(env: Env = process.env): string {
  const fromEnv = env.CODEX_HOME?.trim();
  return fromEnv ? path.resolve(fromEnv) : path.join(env.HOME?.trim() || homedir(), '.codex');
}

/**
 * The daemon's control socket: a symlink (in a folder of mode 0700) to a socket under the system temp
 * dir. It speaks WebSocket, one JSON-RPC message per text frame.
 */
export function controlSocketPath(codexHome: string): string {
  return path.join(codexHome, 'app-server-control', 'app-server-control.sock');
}

/** `$CODEX_HOME/app-server-daemon/daemon.pid`: the running daemon's pid and when it started. */
export function daemonPidFile(codexHome: string): string {
  return path.join(codexHome, 'app-server-daemon', 'daemon.pid');
}

/** A pid file holds a pid and a start time; anything longer is not one. */
export const DAEMON_PID_MAX_BYTES = 4 * 1024;

export interface DaemonProcess {
  pid: number;
  /** What the daemon wrote as its start time: with the pid, one daemon process and no other. */
  startedAt: string;
}

/**
 * The daemon `daemon.pid` names (or another of Codex's pid files), or null when there is none. Read off the
 * main thread and only as the small regular file Codex writes: a FIFO there would freeze the bridge's host,
 * a link to /dev/zero fill its memory (R12.16).
 */
export async function readDaemonProcess(
  codexHome: string,
  file = daemonPidFile(codexHome),
): Promise<DaemonProcess | null> {
  try {
    const text = await readRegularText(file, { maxBytes: DAEMON_PID_MAX_BYTES, noFollow: true });
    const parsed: unknown = JSON.parse(text);
    if (!isRecord(parsed) || typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid)) return null;
    const start = parsed.processStartTime;
    return { pid: parsed.pid, startedAt: typeof start === 'string' || typeof start === 'number' ? String(start) : '' };
  } catch {
    return null;
  }
}

/**
 * A short name for one daemon process of one home. Codex numbers its server requests from 0 in each
 * daemon process (a restart starts again at 0), so a card is keyed by this, the thread and the id.
 */
export function daemonInstanceId(codexHome: string, daemon: DaemonProcess | null): string {
  const identity = daemon ? `${daemon.pid}:${daemon.startedAt}` : `unknown:${Date.now()}:${Math.random()}`;
  return createHash('sha256').update(`${codexHome}\n${identity}`).digest('hex').slice(0, 12);
}

/** Home paths as the person wrote them, made absolute and without duplicates. */
export function uniqueHomes(homes: readonly string[]): string[] {
  return [...new Set(homes.map((home) => path.resolve(home)))];
}
