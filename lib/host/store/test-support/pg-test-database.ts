import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The superuser URL of the tests' PostgreSQL (set by pg-cluster.global-setup.ts, or by hand). */
export const PG_TEST_URL_ENV = 'ASKAWAY_TEST_PG_URL';
/** The CA of the test server's TLS certificate, when the tests started that server (pg-cluster.ts). */
export const PG_TEST_CA_ENV = 'ASKAWAY_TEST_PG_CA';

export function pgTestAdminUrl(): string {
  const url = process.env[PG_TEST_URL_ENV];
  if (!url) throw new Error(`${PG_TEST_URL_ENV} is not set: the server project's global setup starts a PostgreSQL`);
  return url;
}

/** Runs one statement as the superuser, on a connection of its own. */
export async function asAdmin<Row extends pg.QueryResultRow>(
  sql: string,
  values: unknown[] = [],
  url = pgTestAdminUrl(),
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  /** The superuser's URL to the new, empty database. */
  url: string;
  name: string;
  /** Drops it, ending whatever connections are still open to it. */
  drop(): Promise<void>;
}

/** A new empty database in the tests' cluster: one per test file, or per test that needs an empty log. */
export async function createDatabase(): Promise<TestDatabase> {
  const admin = pgTestAdminUrl();
  const name = `askaway_test_${randomBytes(6).toString('hex')}`;
  await asAdmin(`CREATE DATABASE ${name}`, [], admin);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      await asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, [], admin);
    },
  };
}
