import pg from 'pg';
import { type HostEvent } from '../../../contracts';
import { HostStartError } from '../../errors';
import { ownerKey, type StoredSubscription, type StoredTopic } from '../../push/subscription-store';
import { type NewCredential } from '../credential-store';
import { describeConnectError, describeWorkError } from './pg-errors';
import { prepareSchemaInTransaction, RefusedDatabase } from './pg-migrate';
import { notifyChannel } from './pg-schema';
import { pgUrlProblem, redactUrl } from './pg-url';

/** A credential's hash as another log kept it, with when it was last seen. */
export interface ImportedCredential extends NewCredential {
  lastSeenAt?: string;
}

export interface LogToImport {
  /** The log's id, kept: a seq means something only together with it (R10.6). */
  logId: string;
  /** Every event of the log, oldest first, in batches: seqs from 1 with no gap. */
  events: AsyncIterable<readonly HostEvent[]>;
  credentials: readonly ImportedCredential[];
  /** The hub's Web Push subscriptions and ntfy topics (R20.65). */
  push?: { subscriptions: readonly StoredSubscription[]; topics: readonly StoredTopic[] };
  /**
   * Rows of `askaway_secrets` (the tokens, the VAPID keys): they replace any an empty team hub made, so the hub's
   * agents, `askaway` commands and push subscriptions keep working (R20.65).
   */
  secrets?: readonly { name: string; value: string }[];
}

export interface ImportedLog {
  events: number;
  lastSeq: number;
  credentials: number;
}

/** The database already holds a log: nothing was written into it (R20.33). */
export class TargetLogNotEmpty extends Error {
  constructor(
    readonly where: string,
    readonly events: number,
    readonly credentials: number,
  ) {
    const holds = [plural(events, 'event'), plural(credentials, 'credential')].join(' and ');
    super(`The event log in ${where} is not empty (it holds ${holds}): nothing was copied.`);
    this.name = 'TargetLogNotEmpty';
  }
}

/** What the events iterable itself threw: told as it is, not as a database problem. */
class SourceFailed extends Error {}

export interface ImportOptions {
  /** How long to wait for the server to accept the connection (default 10 s). */
  connectTimeoutMs?: number;
  /** Told after each batch is written (still uncommitted), with the events written so far. */
  progress?: (events: number) => void;
}

/**
 * Writes a whole log into the database at `url` in one transaction (R20.32): the schema if there is none,
 * the log's id, every event with its own seq, the credentials' hashes and the head. The database's log must
 * be empty (TargetLogNotEmpty otherwise). Anything that fails, or the process ending, before COMMIT leaves
 * the database exactly as it was; replicas starting meanwhile wait on the migration lock.
 */
export async function importLog(url: string, log: LogToImport, options: ImportOptions = {}): Promise<ImportedLog> {
  const where = redactUrl(url);
  const problem = pgUrlProblem(url);
  if (problem) throw new HostStartError(`The database URL ${where} cannot be used: ${problem}.`);
  const client = new pg.Client({
    connectionString: url,
    fallback_application_name: 'askaway migrate',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    keepAlive: true,
  });
  // Told to the query that fails; unheard, a connection lost mid-way would end the process.
  client.on('error', () => undefined);
  try {
    try {
      await client.connect();
    } catch (error) {
      throw new HostStartError(describeConnectError(url, error), { cause: error });
    }
    await client.query('BEGIN');
    try {
      const imported = await writeLog(client, where, log, options);
      await client.query('COMMIT');
      return imported;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } catch (error) {
    if (error instanceof SourceFailed) throw error.cause;
    if (error instanceof HostStartError || error instanceof TargetLogNotEmpty) throw error;
    if (error instanceof RefusedDatabase) {
      throw new HostStartError(`The event log in ${where} ${error.message}. It was left untouched.`, { cause: error });
    }
    throw describeWorkError(url, 'import into', error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function writeLog(
  client: pg.ClientBase,
  where: string,
  log: LogToImport,
  options: ImportOptions,
): Promise<ImportedLog> {
  const { created } = await prepareSchemaInTransaction(client, log.logId);
  // The head's row lock, as an append takes it: a replica already running on this database waits.
  const head = await client.query<{ last_seq: string }>('SELECT last_seq FROM askaway_head WHERE id = 1 FOR UPDATE');
  const counts = await client.query<{ events: string; credentials: string }>(
    'SELECT (SELECT count(*) FROM askaway_events) AS events, (SELECT count(*) FROM askaway_credentials) AS credentials',
  );
  const events = Number(counts.rows[0]?.events ?? 0);
  const credentials = Number(counts.rows[0]?.credentials ?? 0);
  if (Number(head.rows[0]?.last_seq ?? 0) > 0 || events > 0 || credentials > 0) {
    throw new TargetLogNotEmpty(where, events, credentials);
  }
  // A hub serving the empty log that was here would go on under its id, and its phones would not know the new one.
  // Sessions do not show their schema, so any Askaway hub connected to this database counts.
  const sessions = created ? 0 : await hubSessions(client);
  if (sessions > 0) {
    throw new HostStartError(
      `Askaway hubs are connected to the database of ${where} (${plural(sessions, 'session')}), and one may serve its empty log: stop the hubs on this log, then migrate again. Nothing was copied.`,
    );
  }
  // An empty log made by a team hub that started on this database has an id of its own: the source's wins.
  await client.query("UPDATE askaway_meta SET value = $1 WHERE key = 'log_id'", [log.logId]);
  let lastSeq = 0;
  const iterator = log.events[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<readonly HostEvent[]>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw new SourceFailed('the log being imported failed', { cause: error });
    }
    if (next.done) break;
    const batch = next.value;
    batch.forEach((event, index) => {
      if (event.seq !== lastSeq + 1 + index) {
        throw new SourceFailed('a gap', {
          cause: new Error(
            `The log being imported skips from seq ${lastSeq + index} to ${event.seq}: nothing was copied.`,
          ),
        });
      }
    });
    if (batch.length === 0) continue;
    await client.query(
      `INSERT INTO askaway_events (seq, type, at, body)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::json[])`,
      [
        batch.map((event) => event.seq),
        batch.map((event) => event.type),
        batch.map((event) => event.at),
        batch.map((event) => JSON.stringify(event)),
      ],
    );
    lastSeq += batch.length;
    options.progress?.(lastSeq);
  }
  for (const credential of log.credentials) {
    await client.query(
      'INSERT INTO askaway_credentials (kind, id, secret_hash, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $5)',
      [credential.kind, credential.id, credential.secretHash, credential.createdAt, credential.lastSeenAt ?? null],
    );
  }
  await writePushState(client, log);
  await client.query('UPDATE askaway_head SET last_seq = $1 WHERE id = 1', [lastSeq]);
  // Delivered at COMMIT: a replica already listening reads the new log at once.
  await client.query('SELECT pg_notify($1, $2)', [notifyChannel(log.logId), String(lastSeq)]);
  return { events: lastSeq, lastSeq, credentials: log.credentials.length };
}

async function writePushState(client: pg.ClientBase, log: LogToImport): Promise<void> {
  for (const subscription of log.push?.subscriptions ?? []) {
    await client.query(
      `INSERT INTO askaway_push_subscriptions (device_id, endpoint, p256dh, auth, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT DO NOTHING`,
      [
        subscription.deviceId,
        subscription.endpoint,
        subscription.keys.p256dh,
        subscription.keys.auth,
        subscription.updatedAt,
      ],
    );
  }
  for (const topic of log.push?.topics ?? []) {
    await client.query(
      `INSERT INTO askaway_ntfy_topics (owner, url, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (owner) DO UPDATE SET url = excluded.url, updated_at = excluded.updated_at`,
      [ownerKey(topic.owner), topic.url, topic.updatedAt],
    );
  }
  // The personal hub sent (or held back) the notifications of the questions it holds: the team's leader does not again.
  await client.query(
    `INSERT INTO askaway_push_notified (request_id)
       SELECT DISTINCT body->'interaction'->>'requestId' FROM askaway_events WHERE type = 'interaction.requested'
       ON CONFLICT DO NOTHING`,
  );
  for (const secret of log.secrets ?? []) {
    await client.query(
      `INSERT INTO askaway_secrets (name, value) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value, created_at = now()`,
      [secret.name, secret.value],
    );
  }
}

async function hubSessions(client: pg.ClientBase): Promise<number> {
  const rows = await client.query<{ sessions: string }>(
    `SELECT count(*) AS sessions FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name IN ('askaway', 'askaway log watch')`,
  );
  return Number(rows.rows[0]?.sessions ?? 0);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
