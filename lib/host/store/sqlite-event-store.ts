import type Database from 'better-sqlite3';
import { hostname } from 'node:os';
import {
  errorMessage,
  HostEventSchema,
  LOCAL_MACHINE_ID,
  machineNameFrom,
  type HostEvent,
  type NewHostEvent,
} from '../../contracts';
import { HostStartError } from '../errors';
import { type AppendOptions, type EventStore, LogMovedError, withSeq } from './event-store';
import { LogWatchers } from './log-watchers';
import { SqliteCredentialStore } from './sqlite-credential-store';
import { durabilityFromEnv, openEventDatabase, prepareSchema, type Durability } from './sqlite-open';

export interface SqliteEventStoreOptions {
  /** Defaults to ASKAWAY_DURABILITY, else `normal`; see `Durability` for the trade. */
  durability?: Durability;
  /**
   * The hub's own machine's name: a log from before machines moves its interactions to it (R17.4).
   * Default: this computer's host name.
   */
  localMachineName?: string;
}

/**
 * SQLite log (R10.2) in WAL mode; a commit survives SIGKILL of the host before
 * `append` returns (durability: see `sqlite-open.ts`). Writes are human-paced, and a
 * preference change that touches many interactions is one transaction. Re-announces
 * never write. `locking_mode = EXCLUSIVE` keeps a second host from sharing the log, so this process is
 * its only writer: the newest seq is remembered rather than read, and `watch` hears of its own appends
 * only. A damaged, foreign or newer log is refused at open and left as it was. The methods are
 * asynchronous for the contract's sake (a networked log); each does its work at once.
 */
export class SqliteEventStore implements EventStore {
  readonly logId: string;
  readonly credentials: SqliteCredentialStore;
  private readonly db: Database.Database;
  private readonly insert: Database.Statement<[number, string, string, string]>;
  private readonly select: Database.Statement<[number, number], { body: string }>;
  private readonly selectSeqs: Database.Statement<[string], { body: string }>;
  /** Built once: better-sqlite3 wraps a transaction in four functions each time `transaction()` is called. */
  private readonly insertAll: (events: readonly HostEvent[]) => void;
  private seq: number;
  private readonly watchers = new LogWatchers();

  constructor(
    private readonly file: string,
    options: SqliteEventStoreOptions = {},
  ) {
    this.db = openEventDatabase(file, options.durability ?? durabilityFromEnv());
    try {
      const localMachine = { id: LOCAL_MACHINE_ID, name: machineNameFrom(options.localMachineName ?? hostname()) };
      this.logId = prepareSchema(this.db, localMachine).logId;
      this.credentials = new SqliteCredentialStore(this.db);
      this.insert = this.db.prepare('INSERT INTO events (seq, type, at, body) VALUES (?, ?, ?, ?)');
      this.select = this.db.prepare('SELECT body FROM events WHERE seq > ? ORDER BY seq LIMIT ?');
      this.selectSeqs = this.db.prepare(
        'SELECT body FROM events WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq',
      );
      this.insertAll = this.db.transaction((events: readonly HostEvent[]) => {
        for (const event of events) this.insert.run(event.seq, event.type, event.at, JSON.stringify(event));
      });
      const maxSeq = this.db.prepare<[], { seq: number | null }>('SELECT MAX(seq) AS seq FROM events');
      this.seq = maxSeq.get()?.seq ?? 0;
    } catch (error) {
      this.db.close();
      throw new HostStartError(`Cannot prepare the event log ${file}: ${errorMessage(error)}`, { cause: error });
    }
  }

  async append(events: readonly NewHostEvent[], options: AppendOptions = {}): Promise<HostEvent[]> {
    if (options.afterSeq !== undefined && options.afterSeq !== this.seq)
      throw new LogMovedError(options.afterSeq, this.seq);
    const stored = withSeq(events, this.seq + 1);
    // One row is atomic on its own; BEGIN and COMMIT around it would be two more statements on an answer's path.
    const only = stored.length === 1 ? stored[0] : undefined;
    if (only) this.insert.run(only.seq, only.type, only.at, JSON.stringify(only));
    else this.insertAll(stored);
    this.seq += stored.length;
    if (stored.length > 0) this.watchers.appended(this.seq);
    return stored;
  }

  async readSince(afterSeq: number, limit: number): Promise<HostEvent[]> {
    return this.select.all(afterSeq, limit).map((row) => this.parse(row.body));
  }

  private parse(body: string): HostEvent {
    const parsed = HostEventSchema.safeParse(JSON.parse(body));
    if (!parsed.success) throw new Error(`Event log ${this.file} holds an unreadable event: ${parsed.error.message}`);
    return parsed.data;
  }

  async readSeqs(seqs: readonly number[]): Promise<HostEvent[]> {
    const wanted = seqs.filter((seq) => Number.isInteger(seq) && seq > 0);
    if (wanted.length === 0) return [];
    return this.selectSeqs.all(JSON.stringify(wanted)).map((row) => this.parse(row.body));
  }

  async lastSeq(): Promise<number> {
    return this.seq;
  }

  watch(listener: (lastSeq: number) => void): () => void {
    return this.watchers.add(listener);
  }

  async close(): Promise<void> {
    this.watchers.clear();
    if (this.db.open) this.db.close();
  }
}
