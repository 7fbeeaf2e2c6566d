import pg from 'pg';
import { HostEventSchema, type HostEvent, type NewHostEvent } from '../../../contracts';
import { safeParseHot } from '../../../core/hot-parse';
import { HostStartError } from '../../errors';
import { type AppendOptions, type EventStore } from '../event-store';
import { appendAfter, appendedOrThrow, appendInTransaction } from './pg-append';
import { PgCredentialStore } from './pg-credential-store';
import { PgDatabase } from './pg-database';
import { describeConnectError, passwordOf, reasonOf } from './pg-errors';
import { PgLeadership, type PgLeadershipOptions } from './pg-leadership';
import { PgLogWatcher } from './pg-log-watcher';
import { PgAttemptCounts } from './pg-attempt-counts';
import { PgMachinePresence } from './pg-machine-presence';
import { PgOneTimeCodes } from './pg-one-time-codes';
import { PgRouteBoard } from './pg-route-board';
import { PgSecretRelay } from './pg-secret-relay';
import { PgPresenceBoard } from './pg-presence-board';
import { PgNotifyLedger } from './pg-push-ledger';
import { PgPushStore } from './pg-push-store';
import { PgTeamSecrets } from './pg-team-secrets';
import { prepareSchema, RefusedDatabase } from './pg-migrate';
import { notifyChannel } from './pg-schema';
import { pgUrlProblem, redactUrl } from './pg-url';

export interface PgEventStoreOptions {
  /** Where a replica's notes go (a lost idle connection, the listener reconnecting). Default: stderr. */
  log?: (line: string) => void;
  /** The hub's clock, which one-time codes expire by (tests move it). Default: Date.now. */
  now?: () => number;
  /** Connections the pool may hold open (default 10); the LISTEN connection is one more. */
  maxConnections?: number;
  /** How long to wait for the server to accept a connection, at open and later (default 10 s). */
  connectTimeoutMs?: number;
  /**
   * How long the server lets one of this replica's sessions sit idle inside a transaction before ending it
   * (default 30 s): a replica that goes silent mid-append would otherwise hold the head lock, and every other
   * replica's appends would wait for it.
   */
  stalledTransactionMs?: number;
}

/**
 * The event log (R10.2) and the credentials' hashes (R16.1) in PostgreSQL, for a team hub whose replicas
 * share one database (R20.10). Every call reads or writes the database: no seq is remembered as the truth,
 * since another replica may have appended. Appends are ordered by a row lock (pg-append.ts).
 */
export class PgEventStore implements EventStore {
  readonly credentials: PgCredentialStore;
  /** Pairing and join codes, shared by the replicas (R20.42). */
  readonly codes: PgOneTimeCodes;
  /** Failed pairing and join attempts, counted by every replica together (R20.46). */
  readonly attempts: PgAttemptCounts;
  /** The tokens and VAPID keys every replica uses (R20.61). */
  readonly secrets: PgTeamSecrets;
  /** Web Push subscriptions and ntfy topics, shared by the replicas (R20.60). */
  readonly pushStore: PgPushStore;
  /** Which questions' notifications went out (R20.63). */
  readonly notifyLedger: PgNotifyLedger;
  private readonly listeners = new Set<{ listener: (lastSeq: number) => void }>();
  private watcher: PgLogWatcher | undefined;
  /** The newest seq reported to listeners (or known at open): they hear only seqs above it. */
  private reportedSeq: number;

  private constructor(
    private readonly db: PgDatabase,
    private readonly config: pg.ClientConfig,
    readonly logId: string,
    lastSeq: number,
    private readonly log: (line: string) => void,
    now?: () => number,
  ) {
    this.credentials = new PgCredentialStore(db);
    this.codes = new PgOneTimeCodes(db, now);
    this.attempts = new PgAttemptCounts(db);
    this.secrets = new PgTeamSecrets(db);
    this.pushStore = new PgPushStore(db);
    this.notifyLedger = new PgNotifyLedger(db);
    this.reportedSeq = lastSeq;
  }

  /**
   * Connects, creates or migrates the schema once (under a lock the other replicas wait on), and reads the
   * log's id. A database that cannot be reached, refuses the credentials, or holds a newer schema is a
   * HostStartError whose message shows the URL without its password (R20.17, R20.12).
   */
  static async open(url: string, options: PgEventStoreOptions = {}): Promise<PgEventStore> {
    const where = redactUrl(url);
    const problem = pgUrlProblem(url);
    if (problem) throw new HostStartError(`The database URL ${where} cannot be used: ${problem}.`);
    const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    const config: pg.PoolConfig = {
      connectionString: url,
      fallback_application_name: 'askaway',
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      keepAlive: true,
      idle_in_transaction_session_timeout: options.stalledTransactionMs ?? 30_000,
    };
    // A connection of its own, not the pool's: a pool does not close a connection that failed to authenticate,
    // which would hold a backend open on the server until its authentication_timeout.
    let client: pg.Client | undefined;
    let opened: { logId: string; lastSeq: number };
    try {
      // Inside the try: reading the URL's sslrootcert, sslcert or sslkey file may fail here.
      client = new pg.Client(config);
      // Told to the query that fails; unheard, a connection lost mid-way would end the process.
      client.on('error', () => undefined);
      await client.connect();
      const { logId } = await prepareSchema(client);
      const head = await client.query<{ last_seq: string }>('SELECT last_seq FROM askaway_head WHERE id = 1');
      opened = { logId, lastSeq: Number(head.rows[0]?.last_seq ?? 0) };
    } catch (error) {
      if (error instanceof RefusedDatabase) {
        throw new HostStartError(
          `The event log in ${where} ${error.message}. It was left untouched; run an Askaway that reads it, or use another database.`,
          { cause: error },
        );
      }
      throw new HostStartError(describeConnectError(url, error), { cause: error });
    } finally {
      await client?.end().catch(() => undefined);
    }
    const pool = new pg.Pool(config);
    // An idle client whose server went away emits `error` on the pool; unheard, it would end the process.
    // The pool has already dropped that client, and the next query connects anew.
    pool.on('error', (error) => {
      log(`The event log's database ${where} closed an idle connection (${reasonOf(error, passwordOf(url))}).`);
    });
    return new PgEventStore(new PgDatabase(pool, url), config, opened.logId, opened.lastSeq, log, options.now);
  }

  /** This replica's part in handing secret answers to other replicas (R20.47); not yet started. */
  secretRelay(onError?: (error: unknown) => void): PgSecretRelay {
    return new PgSecretRelay(this.db, onError);
  }

  /** The election of the replica that runs the deadlines (R20.43), on a connection of its own; not yet started. */
  leadership(options: PgLeadershipOptions = {}): PgLeadership {
    return new PgLeadership(this.config, this.logId, options);
  }

  /** Where this replica says which pending questions have their agents connected to it (R20.67). */
  routeBoard(replicaId: string, leaseMs?: number): PgRouteBoard {
    return new PgRouteBoard(this.db, replicaId, leaseMs);
  }

  /** Where this replica says how many agents each machine has connected to it (R20.66). */
  machinePresence(replicaId: string, leaseMs?: number): PgMachinePresence {
    return new PgMachinePresence(this.db, replicaId, leaseMs);
  }

  /** Where this replica says which devices look through it (R20.64); `replicaId` is this process's, random. */
  presenceBoard(replicaId: string, leaseMs?: number): PgPresenceBoard {
    return new PgPresenceBoard(this.db, replicaId, leaseMs);
  }

  async append(events: readonly NewHostEvent[], options: AppendOptions = {}): Promise<HostEvent[]> {
    if (events.length === 0 && options.afterSeq === undefined) return [];
    const channel = notifyChannel(this.logId);
    const outcome =
      options.afterSeq === undefined
        ? await this.db.withClient('append to', (client) => appendInTransaction(client, events, options, channel))
        : await appendAfter(this.db, events, options.afterSeq, channel);
    const appended = appendedOrThrow(outcome, options);
    const last = appended.at(-1);
    if (last) this.heard(last.seq);
    return appended;
  }

  async readSince(afterSeq: number, limit: number): Promise<HostEvent[]> {
    const rows = await this.db.query<{ seq: string; body: string }>(
      'read',
      'SELECT seq, body::text AS body FROM askaway_events WHERE seq > $1 ORDER BY seq LIMIT $2',
      [Math.max(0, Math.floor(afterSeq)), Math.max(0, Math.floor(limit))],
    );
    return rows.map((row) => this.parse(row.seq, row.body));
  }

  async readSeqs(seqs: readonly number[]): Promise<HostEvent[]> {
    const wanted = seqs.filter((seq) => Number.isInteger(seq) && seq > 0);
    if (wanted.length === 0) return [];
    const rows = await this.db.query<{ seq: string; body: string }>(
      'read',
      'SELECT seq, body::text AS body FROM askaway_events WHERE seq = ANY($1::bigint[]) ORDER BY seq',
      [wanted],
    );
    return rows.map((row) => this.parse(row.seq, row.body));
  }

  async lastSeq(): Promise<number> {
    const rows = await this.db.query<{ last_seq: string }>('read', 'SELECT last_seq FROM askaway_head WHERE id = 1');
    return Number(rows[0]?.last_seq ?? 0);
  }

  watch(listener: (lastSeq: number) => void): () => void {
    const entry = { listener };
    this.listeners.add(entry);
    if (!this.watcher && !this.db.isClosed) {
      this.watcher = new PgLogWatcher({
        config: this.config,
        channel: notifyChannel(this.logId),
        heard: (seq) => this.heard(seq),
        log: this.log,
        url: this.db.url,
      });
      this.watcher.start();
    }
    return () => {
      this.listeners.delete(entry);
      if (this.listeners.size === 0) void this.stopWatching();
    };
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.stopWatching();
    await this.db.close();
  }

  /** Reports a seq to the listeners once, and only when it is newer than any reported (a hint, coalesced). */
  private heard(seq: number): void {
    if (seq <= this.reportedSeq) return;
    this.reportedSeq = seq;
    for (const { listener } of [...this.listeners]) {
      try {
        listener(seq);
      } catch (error) {
        this.log(`An event log listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  private async stopWatching(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = undefined;
    await watcher?.stop();
  }

  private parse(seq: string, body: string): HostEvent {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (error) {
      throw this.unreadable(seq, error instanceof Error ? error.message : String(error));
    }
    // Every replica parses every event another appended: compiled once it is hot, as the host's messages are.
    const parsed = safeParseHot(HostEventSchema, json);
    if (!parsed.success) throw this.unreadable(seq, parsed.error.message);
    if (String(parsed.data.seq) !== seq) throw this.unreadable(seq, `its body says seq ${parsed.data.seq}`);
    return parsed.data;
  }

  private unreadable(seq: string, reason: string): Error {
    return new Error(`Event log in ${redactUrl(this.db.url)} holds an unreadable event at seq ${seq}: ${reason}`);
  }
}
