import Database from 'better-sqlite3';
import { HostEventSchema, type HostEvent, type NewHostEvent } from '../../contracts';
import { HostStartError, errorMessage } from '../errors';
import { type EventStore, withSeq } from './event-store';

const SCHEMA_VERSION = 1;

/**
 * SQLite log (R10.2). WAL with `synchronous = FULL`: every commit is fsynced, so an
 * acked answer survives SIGKILL and power loss alike. The cost (one fsync per
 * commit) is harmless here: writes are human-paced, and a preference change that
 * touches many interactions is one transaction. Re-announces never write.
 * `locking_mode = EXCLUSIVE` keeps a second host from sharing the same log.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement<[number, string, string, string]>;
  private readonly select: Database.Statement<[number, number], { body: string }>;
  private readonly maxSeq: Database.Statement<[], { seq: number | null }>;
  private seq: number;

  constructor(private readonly file: string) {
    this.db = openDatabase(file);
    try {
      this.db.exec(
        'CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, at TEXT NOT NULL, body TEXT NOT NULL)',
      );
      this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
      this.insert = this.db.prepare('INSERT INTO events (seq, type, at, body) VALUES (?, ?, ?, ?)');
      this.select = this.db.prepare('SELECT body FROM events WHERE seq > ? ORDER BY seq LIMIT ?');
      this.maxSeq = this.db.prepare('SELECT MAX(seq) AS seq FROM events');
      this.seq = this.maxSeq.get()?.seq ?? 0;
    } catch (error) {
      this.db.close();
      throw new HostStartError(`Cannot prepare the event log ${file}: ${errorMessage(error)}`, { cause: error });
    }
  }

  append(events: readonly NewHostEvent[]): HostEvent[] {
    const stored = withSeq(events, this.seq + 1);
    this.db.transaction(() => {
      for (const event of stored) this.insert.run(event.seq, event.type, event.at, JSON.stringify(event));
    })();
    this.seq += stored.length;
    return stored;
  }

  readSince(afterSeq: number, limit: number): HostEvent[] {
    return this.select.all(afterSeq, limit).map((row) => {
      const parsed = HostEventSchema.safeParse(JSON.parse(row.body));
      if (!parsed.success) throw new Error(`Event log ${this.file} holds an unreadable event: ${parsed.error.message}`);
      return parsed.data;
    });
  }

  lastSeq(): number {
    return this.seq;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function openDatabase(file: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: 1_000 });
    // Before any read, so WAL never needs the shared-memory file (single process by design).
    db.pragma('locking_mode = EXCLUSIVE');
    const version = Number(db.pragma('user_version', { simple: true }));
    if (version > SCHEMA_VERSION) {
      throw new Error(`it was written by a newer Askaway (schema ${version}, this one reads ${SCHEMA_VERSION})`);
    }
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    // Take the write lock now, so a second host fails at start rather than on its first answer.
    db.exec('BEGIN EXCLUSIVE; COMMIT;');
    return db;
  } catch (error) {
    db?.close();
    throw new HostStartError(describeOpenError(file, error), { cause: error });
  }
}

function describeOpenError(file: string, error: unknown): string {
  const code = typeof error === 'object' && error && 'code' in error ? String(error.code) : '';
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return `The event log ${file} is not a readable SQLite database (${code}). It was left untouched; move it aside to start fresh.`;
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return `The event log ${file} is locked: is another askaway host running with this data dir?`;
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY') {
    return `Cannot open the event log ${file} for writing (${code}): check the data dir's permissions.`;
  }
  return `Cannot open the event log ${file}: ${errorMessage(error)}`;
}
