// What a running Codex bridge says about each home it serves: read by `askaway status`, and the lock that
// keeps two bridges (say `askaway start` and `askaway codex`) from putting every prompt on the phone twice.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { processAlive } from './codex-home';

/** A bridge rewrites its file at least this often; an older file is a bridge that died without cleaning up. */
export const BRIDGE_STATUS_HEARTBEAT_MS = 10_000;
const STALE_AFTER_MS = 3 * BRIDGE_STATUS_HEARTBEAT_MS;

export const BridgeHomeStatusSchema = z.object({
  codexHome: z.string(),
  /** One running bridge (a process may run more than one in tests). */
  bridgeId: z.string(),
  pid: z.number().int(),
  /** Which command runs the bridge: `askaway start` or `askaway codex`. */
  owner: z.string(),
  /** `waiting`: no daemon runs there; `attached`: joined to it; `elsewhere`: another bridge serves this home. */
  state: z.enum(['waiting', 'connecting', 'attached', 'elsewhere']),
  daemonPid: z.number().int().optional(),
  threads: z.number().int(),
  pending: z.number().int(),
  /** Why the bridge is not attached, in words. */
  detail: z.string().optional(),
  updatedAt: z.string(),
});
export type BridgeHomeStatus = z.infer<typeof BridgeHomeStatusSchema>;

/** `<dataDir>/codex-bridge-<hash of the home>.json`: one file per Codex home, owner-only like the data dir's others. */
const PREFIX = 'codex-bridge-';

function statusFile(dataDir: string, codexHome: string): string {
  const name = createHash('sha256').update(codexHome).digest('hex').slice(0, 16);
  return path.join(dataDir, `${PREFIX}${name}.json`);
}

function live(status: BridgeHomeStatus, now: number): boolean {
  return now - Date.parse(status.updatedAt) < STALE_AFTER_MS && processAlive(status.pid);
}

function readOne(file: string): BridgeHomeStatus | null {
  try {
    const parsed = BridgeHomeStatusSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Writes this bridge's status for one home (atomically, owner-only). */
export function writeBridgeStatus(dataDir: string, status: BridgeHomeStatus): void {
  const file = statusFile(dataDir, status.codexHome);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(status)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}

/** Removes a bridge's status for a home (on stop), leaving another bridge's file alone. */
export function removeBridgeStatus(dataDir: string, codexHome: string, bridgeId: string): void {
  const file = statusFile(dataDir, codexHome);
  if (readOne(file)?.bridgeId === bridgeId) rmSync(file, { force: true });
}

/** The live bridge other than `bridgeId` that serves `codexHome`, if any. */
export function otherBridgeFor(
  dataDir: string,
  codexHome: string,
  bridgeId: string,
  now = Date.now(),
): BridgeHomeStatus | null {
  const status = readOne(statusFile(dataDir, codexHome));
  if (!status || status.bridgeId === bridgeId || status.state === 'elsewhere' || !live(status, now)) return null;
  return status;
}

/** Every live bridge's status on this machine (for `askaway status`). */
export function readBridgeStatuses(dataDir: string, now = Date.now()): BridgeHomeStatus[] {
  let names: string[];
  try {
    names = readdirSync(dataDir).filter((name) => name.startsWith(PREFIX) && name.endsWith('.json'));
  } catch {
    return [];
  }
  return names
    .map((name) => readOne(path.join(dataDir, name)))
    .filter(
      (status): status is BridgeHomeStatus => status !== null && status.state !== 'elsewhere' && live(status, now),
    );
}
