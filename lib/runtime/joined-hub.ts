import fs from 'node:fs';
import path from 'node:path';
import { errorMessage, JOINED_HUB_FILE, JoinedHubFileSchema, type JoinedHubFile } from '../contracts';

/** What `<dataDir>/hub.json` says, or why it cannot be used. */
export type JoinedHubState =
  { kind: 'none' } | { kind: 'joined'; hub: JoinedHubFile } | { kind: 'unreadable'; reason: string };

/** Reads the joined hub of this data dir (R17.1); never throws. */
export function readJoinedHub(dataDir: string): JoinedHubState {
  const file = path.join(dataDir, JOINED_HUB_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    return { kind: 'unreadable', reason: `cannot read ${file} (${errorMessage(error)})` };
  }
  try {
    const parsed = JoinedHubFileSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { kind: 'joined', hub: parsed.data };
  } catch {
    // Not JSON: said below.
  }
  return { kind: 'unreadable', reason: `${file} is not a hub file this askaway reads; run \`askaway join\` again` };
}

/**
 * Keeps the hub's address and this machine's credential (R17.1): owner-only, written whole
 * (a temporary file renamed over the old one), in a data dir created owner-only.
 */
export function writeJoinedHub(dataDir: string, hub: JoinedHubFile): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, JOINED_HUB_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(hub, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temp, 0o600);
  fs.renameSync(temp, file);
  return file;
}

/** Forgets the joined hub; true when there was one. */
export function removeJoinedHub(dataDir: string): boolean {
  const file = path.join(dataDir, JOINED_HUB_FILE);
  if (!fs.existsSync(file)) return false;
  fs.rmSync(file, { force: true });
  return true;
}
