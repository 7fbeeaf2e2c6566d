import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { errorMessage, type MachineRef } from '../../contracts';
import { agentOf } from '../../contracts/agent-of';
import { HostStartError } from '../errors';
import { createOwnerOnly, tightenToOwner } from './owner-only';

/**
 * 1: the events table. 2: device events in the log, plus `credentials` (hashes of device
 * secrets, never in the log) and `meta` (the log's id, R10.6). 3: machines (R17.4): every
 * interaction record names its machine, and machine events join the log. 4: agents (R18.1): every
 * interaction record names the agent that asked. An older host refuses a newer log at open; a newer
 * host migrates an older one forward in one transaction (R16.7).
 */
export const SCHEMA_VERSION = 4;

/** Every table of the current schema and its columns, in order. */
const TABLES: Record<string, string[]> = {
  credentials: ['kind', 'id', 'secret_hash', 'created_at', 'last_seen_at'],
  events: ['seq', 'type', 'at', 'body'],
  meta: ['key', 'value'],
};
/** The tables a log of each older version holds. */
const TABLES_BEFORE: Record<number, string[]> = {
  0: ['events'],
  1: ['events'],
  2: Object.keys(TABLES),
  3: Object.keys(TABLES),
};

const CREATE = `
  CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, at TEXT NOT NULL, body TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS credentials (
    kind TEXT NOT NULL, id TEXT NOT NULL, secret_hash BLOB NOT NULL, created_at TEXT NOT NULL, last_seen_at TEXT,
    PRIMARY KEY (kind, id)
  );
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/**
 * How hard each commit is pushed to disk.
 * - `normal` (default): WAL with `synchronous = NORMAL`. A commit is in the WAL file
 *   before `append` returns, so a killed or crashed host process (SIGKILL, the fault
 *   drill) loses nothing; the WAL is fsynced at checkpoints only. A power loss or OS
 *   crash can drop the last commits, but the log stays consistent, and the agent
 *   process waiting for such an answer dies with the machine, so there is no one left
 *   to apply it. FULL costs one fsync per commit, three per round trip (R13.1).
 * - `full`: `synchronous = FULL`, every commit fsynced (ASKAWAY_DURABILITY=full), for
 *   a log on a machine whose agents outlive it (e.g. a remote filesystem).
 */
export type Durability = 'normal' | 'full';

/** A log this host must not write into; the reason completes "The event log <file> …". */
class RefusedLog extends Error {}

export function durabilityFromEnv(value = process.env.ASKAWAY_DURABILITY): Durability {
  const chosen = (value ?? '').trim().toLowerCase();
  if (chosen === '' || chosen === 'normal') return 'normal';
  if (chosen === 'full') return 'full';
  throw new HostStartError(`ASKAWAY_DURABILITY must be "normal" or "full", not "${value ?? ''}".`);
}

/**
 * Opens the log for this host only, or refuses with a message a person can act on.
 * Every check runs before the first write (WAL switch, schema creation), so a log
 * that is refused stays byte-for-byte as it was.
 */
export function openEventDatabase(file: string, durability: Durability): Database.Database {
  let db: Database.Database | undefined;
  try {
    // A new log is the owner's only from its first byte (R12.9); its WAL inherits the mode.
    createOwnerOnly(file);
    db = new Database(file, { timeout: 1_000 });
    // Before any read, so WAL never needs the shared-memory file (single process by design).
    db.pragma('locking_mode = EXCLUSIVE');
    const version = Number(db.pragma('user_version', { simple: true }));
    if (version > SCHEMA_VERSION) {
      throw new RefusedLog(`it was written by a newer Askaway (schema ${version}, this one reads ${SCHEMA_VERSION})`);
    }
    checkIntegrity(db);
    checkSchema(db, version);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
    // Take the write lock now, so a second host fails at start rather than on its first answer.
    db.exec('BEGIN EXCLUSIVE; COMMIT;');
    // Only once it is known good (a refused log is left as it was): an older install's log may be 0644.
    tightenToOwner(file, `${file}-wal`, `${file}-shm`);
    return db;
  } catch (error) {
    db?.close();
    throw new HostStartError(describeOpenError(file, error), { cause: error });
  }
}

/**
 * A damaged page would otherwise be folded silently (pending questions vanish) and
 * appended to. `integrity_check` reads every page: ~50 ms for 100,000 events (65 MiB),
 * small next to folding them (~3 s), and it also covers indexes added later.
 */
function checkIntegrity(db: Database.Database): void {
  const rows = db.pragma('integrity_check(3)') as { integrity_check: string }[];
  // A one-line reason: SQLite prefixes multi-line reports with "*** in database main ***".
  const problems = rows
    .map((row) =>
      row.integrity_check
        .replace(/\*\*\* in database \w+ \*\*\*/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((line) => line !== 'ok' && line !== '');
  if (problems.length > 0) throw new RefusedLog(`is damaged (integrity check: ${problems.join('; ')})`);
}

/**
 * Creates what is missing and moves an older log to SCHEMA_VERSION, in one transaction, so a crash
 * leaves either the old log or the new one. Returns the log's id, made once per log (R10.6).
 * `localMachine` is the hub's own machine: what every interaction of a log from before machines
 * came from (R17.4).
 */
export function prepareSchema(db: Database.Database, localMachine: MachineRef): { logId: string } {
  return db.transaction(() => {
    const version = Number(db.pragma('user_version', { simple: true }));
    db.exec(CREATE);
    db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('log_id', ?)").run(randomBytes(12).toString('hex'));
    if (version < 3) {
      // Keys stay as they were: the hub's own machine keys interactions by the runtime's id.
      db.prepare(
        "UPDATE events SET body = json_set(body, '$.interaction.machine', json(?)) WHERE type = 'interaction.requested'",
      ).run(JSON.stringify({ id: localMachine.id, name: localMachine.name }));
    }
    if (version < 4) recordAgents(db);
    if (version !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
    const row = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'log_id'").get();
    if (!row) throw new Error('the log has no id after preparing it');
    return { logId: row.value };
  })();
}

/**
 * Names the agent of every interaction asked before agents were recorded, as its tool name implies
 * (`agentOf`: Claude Code's hooks, else the MCP client it named): the phone then reads the agent from
 * every view and needs no rule of its own. Only typed fields are read; a record too broken to say is
 * left as it is, for the log's reader to refuse.
 */
function recordAgents(db: Database.Database): void {
  const rows = db
    .prepare<[], Record<'seq' | 'kind' | 'toolName' | 'inputRules' | 'clientName' | 'clientVersion', unknown>>(
      `SELECT seq,
        json_extract(body, '$.interaction.kind') AS kind,
        json_extract(body, '$.interaction.toolName') AS toolName,
        json_extract(body, '$.interaction.inputRules') AS inputRules,
        json_extract(body, '$.interaction.origin.client.name') AS clientName,
        json_extract(body, '$.interaction.origin.client.version') AS clientVersion
      FROM events
      WHERE type = 'interaction.requested' AND json_valid(body) AND json_type(body, '$.interaction.agent') IS NULL`,
    )
    .all();
  const update = db.prepare("UPDATE events SET body = json_set(body, '$.interaction.agent', json(?)) WHERE seq = ?");
  for (const row of rows) {
    if (typeof row.kind !== 'string' || typeof row.toolName !== 'string') continue;
    const client =
      typeof row.clientName === 'string' && row.clientName !== ''
        ? { name: row.clientName, ...(typeof row.clientVersion === 'string' ? { version: row.clientVersion } : {}) }
        : undefined;
    const agent = agentOf({
      kind: row.kind,
      toolName: row.toolName,
      ...(typeof row.inputRules === 'string' ? { inputRules: row.inputRules } : {}),
      ...(client ? { origin: { client } } : {}),
    });
    update.run(JSON.stringify(agent), row.seq);
  }
}

/** An empty file is ours to set up; anything else must hold exactly the tables of its version. */
function checkSchema(db: Database.Database, version: number): void {
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((row) => row.name);
  if (tables.length === 0) return;
  const expected = TABLES_BEFORE[version] ?? Object.keys(TABLES);
  const known =
    tables.join() === expected.join() &&
    tables.every((table) => columnsOf(db, table).join() === (TABLES[table] ?? []).join());
  if (!known) throw new RefusedLog(`is a SQLite database Askaway does not know (tables: ${tables.join(', ')})`);
}

function columnsOf(db: Database.Database, table: string): string[] {
  return db
    .prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?) ORDER BY cid')
    .all(table)
    .map((row) => row.name);
}

function describeOpenError(file: string, error: unknown): string {
  const untouched = 'It was left untouched; move it aside (e.g. rename it) to start with an empty log.';
  if (error instanceof RefusedLog) return `The event log ${file} ${error.message}. ${untouched}`;
  const code = typeof error === 'object' && error && 'code' in error ? String(error.code) : '';
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return `The event log ${file} is not a readable SQLite database (${code}). ${untouched}`;
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return `The event log ${file} is locked: is another askaway host running with this data dir?`;
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY') {
    return `Cannot open the event log ${file} for writing (${code}): check the data dir's permissions.`;
  }
  return `Cannot open the event log ${file}: ${errorMessage(error)}`;
}
