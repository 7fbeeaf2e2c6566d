import pg from 'pg';
import { startPgCluster, type PgCluster } from '../../lib/host/store/test-support/pg-cluster';

/**
 * The team hub benchmark's PostgreSQL: the tests' throwaway cluster, with a commit as durable as the single hub's
 * SQLite log (WAL written at commit, not flushed: synchronous_commit=off beside SQLite's synchronous=NORMAL; fsync
 * and full page writes on, as a real server has them), and pg_stat_statements to count what the replicas ask.
 */
export interface BenchDatabase {
  /** The database's URL, with the password: for ASKAWAY_DATABASE_URL, never for a command line. */
  url: string;
  /** What the replicas have asked of the database so far (see `DatabaseCounts`). */
  counts(): Promise<DatabaseCounts>;
  /** Every statement the replicas sent and how often, most first (a diagnostic). */
  statements(): Promise<{ calls: number; query: string }[]>;
  stop(): Promise<void>;
}

/**
 * Every statement a client sends is one round trip (node-postgres sends one statement and waits for its answer),
 * so `statements` (pg_stat_statements' calls, top-level statements including BEGIN and COMMIT, of the bench
 * database only) counts round trips. `transactions` is pg_stat_database's commits and rollbacks (an autocommit
 * SELECT is one too); `appends` the calls of the append statement (pg-append.ts), one per command that wrote.
 */
export interface DatabaseCounts {
  statements: number;
  transactions: number;
  appends: number;
}

const DATABASE = 'askaway_bench';

export async function startBenchDatabase(): Promise<BenchDatabase> {
  const cluster: PgCluster = await startPgCluster({
    settings: [
      'fsync=on',
      'full_page_writes=on',
      'synchronous_commit=off',
      'shared_preload_libraries=pg_stat_statements',
      'pg_stat_statements.track=top',
      'pg_stat_statements.track_utility=on',
    ],
  });
  // The counting connection sits in the postgres database, so its own statements are not counted.
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  admin.on('error', () => undefined);
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  } catch (error) {
    await admin.end().catch(() => undefined);
    await cluster.stop();
    throw error;
  }
  const url = new URL(cluster.adminUrl);
  url.pathname = `/${DATABASE}`;
  return {
    url: url.toString(),
    counts: async () => {
      // pg_stat_database is a snapshot per transaction: clear it so each call reads the present.
      await admin.query('SELECT pg_stat_clear_snapshot()');
      const { rows } = await admin.query<{ statements: string; appends: string; transactions: string }>(
        `SELECT
           coalesce((SELECT sum(s.calls) FROM pg_stat_statements s WHERE s.dbid = d.datid), 0) AS statements,
           coalesce((SELECT sum(s.calls) FROM pg_stat_statements s
                     WHERE s.dbid = d.datid AND s.query LIKE '%INSERT INTO askaway_events%'), 0) AS appends,
           d.xact_commit + d.xact_rollback AS transactions
         FROM pg_stat_database d WHERE d.datname = $1`,
        [DATABASE],
      );
      const row = rows[0];
      if (!row) throw new Error(`no statistics for the database ${DATABASE}`);
      return {
        statements: Number(row.statements),
        transactions: Number(row.transactions),
        appends: Number(row.appends),
      };
    },
    statements: async () => {
      const { rows } = await admin.query<{ calls: string; query: string }>(
        `SELECT s.calls, regexp_replace(s.query, '\\s+', ' ', 'g') AS query FROM pg_stat_statements s
         JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1 ORDER BY s.calls DESC`,
        [DATABASE],
      );
      return rows.map((row) => ({ calls: Number(row.calls), query: row.query.slice(0, 160) }));
    },
    stop: async () => {
      await admin.end().catch(() => undefined);
      await cluster.stop();
    },
  };
}
