import Database from 'better-sqlite3';
import { errorMessage } from '../../contracts';
import { HostStartError } from '../errors';

export const SCHEMA_VERSION = 1;
const EVENTS_COLUMNS = ['seq', 'type', 'at', 'body'];

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
    db = new Database(file, { timeout: 1_000 });
    // Before any read, so WAL never needs the shared-memory file (single process by design).
    db.pragma('locking_mode = EXCLUSIVE');
    const version = Number(db.pragma('user_version', { simple: true }));
    if (version > SCHEMA_VERSION) {
      throw new RefusedLog(`it was written by a newer Askaway (schema ${version}, this one reads ${SCHEMA_VERSION})`);
    }
    checkIntegrity(db);
    checkSchema(db);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
    // Take the write lock now, so a second host fails at start rather than on its first answer.
    db.exec('BEGIN EXCLUSIVE; COMMIT;');
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

/** An empty file is ours to set up; anything else must be exactly our events table. */
function checkSchema(db: Database.Database): void {
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((row) => row.name);
  if (tables.length === 0) return;
  const columns = db
    .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('events') ORDER BY cid")
    .all()
    .map((row) => row.name);
  if (tables.length !== 1 || tables[0] !== 'events' || columns.join() !== EVENTS_COLUMNS.join()) {
    throw new RefusedLog(`is a SQLite database Askaway does not know (tables: ${tables.join(', ')})`);
  }
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
