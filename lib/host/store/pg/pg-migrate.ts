import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { MIGRATIONS, SCHEMA_TABLE, SCHEMA_VERSION } from './pg-schema';

/** A database this build must not write into; the reason completes "The event log in <url> …". */
export class RefusedDatabase extends Error {}

/**
 * Every replica takes this session lock before it reads the schema's version, so a migration runs once while
 * the others wait, then find the schema current. Two 32-bit keys: "aska" and 1, unlikely to meet another
 * application's advisory locks in a shared database.
 */
const MIGRATION_LOCK = [0x61736b61, 1];

/**
 * Creates the tables of an empty database, or moves an older schema to SCHEMA_VERSION in one transaction,
 * under the migration lock; refuses a newer schema (or tables of ours without a version) before writing
 * anything. Returns the log's id, made once per log (R10.6).
 */
export async function prepareSchema(client: pg.ClientBase): Promise<{ logId: string }> {
  await client.query('SELECT pg_advisory_lock($1, $2)', MIGRATION_LOCK);
  try {
    const version = await writableVersion(client);
    if (version < SCHEMA_VERSION) {
      await client.query('BEGIN');
      try {
        await migrate(client, version, randomBytes(12).toString('hex'));
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    }
    return { logId: await readLogId(client) };
  } finally {
    // Also released when the session ends, so a connection lost here leaves no replica waiting.
    await client.query('SELECT pg_advisory_unlock($1, $2)', MIGRATION_LOCK).catch(() => undefined);
  }
}

/**
 * prepareSchema inside the caller's open transaction, for a log being imported (R20.32): tables it creates get
 * `newLogId`, they commit or roll back with the caller's work, and the migration lock is held until then, so a
 * replica that starts meanwhile waits and then finds the whole log. `created`: there were no tables before.
 */
export async function prepareSchemaInTransaction(
  client: pg.ClientBase,
  newLogId: string,
): Promise<{ logId: string; created: boolean }> {
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', MIGRATION_LOCK);
  const version = await writableVersion(client);
  if (version < SCHEMA_VERSION) await migrate(client, version, newLogId);
  return { logId: await readLogId(client), created: version === 0 };
}

/** The schema's version, once known to be one this build may write into. */
async function writableVersion(client: pg.ClientBase): Promise<number> {
  const version = await schemaVersion(client);
  if (version > SCHEMA_VERSION) {
    throw new RefusedDatabase(`was written by a newer Askaway (schema ${version}, this one reads ${SCHEMA_VERSION})`);
  }
  if (version === 0) await refuseStrayTables(client);
  return version;
}

async function readLogId(client: pg.ClientBase): Promise<string> {
  const rows = await client.query<{ value: string }>("SELECT value FROM askaway_meta WHERE key = 'log_id'");
  const logId = rows.rows[0]?.value;
  if (!logId) throw new RefusedDatabase('has no log id (askaway_meta holds no log_id row)');
  return logId;
}

async function schemaVersion(client: pg.ClientBase): Promise<number> {
  const present = await client.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
    SCHEMA_TABLE,
  ]);
  if (!present.rows[0]?.present) return 0;
  const rows = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${SCHEMA_TABLE}`);
  return rows.rows[0]?.version ?? 0;
}

/** Tables named like ours but no version: a half-made or foreign schema, which a migration would trip over. */
async function refuseStrayTables(client: pg.ClientBase): Promise<void> {
  const rows = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_name LIKE 'askaway\\_%' ORDER BY table_name`,
  );
  if (rows.rows.length > 0) {
    const names = rows.rows.map((row) => row.name).join(', ');
    throw new RefusedDatabase(`holds tables Askaway does not know, without a schema version (${names})`);
  }
}

/** Within the caller's transaction. */
async function migrate(client: pg.ClientBase, from: number, newLogId: string): Promise<void> {
  if (from === 0) {
    await client.query(
      `CREATE TABLE ${SCHEMA_TABLE} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
  }
  for (let version = from; version < SCHEMA_VERSION; version += 1) {
    await client.query(MIGRATIONS[version] ?? '');
    await client.query(`INSERT INTO ${SCHEMA_TABLE} (version) VALUES ($1)`, [version + 1]);
  }
  await client.query("INSERT INTO askaway_meta (key, value) VALUES ('log_id', $1) ON CONFLICT (key) DO NOTHING", [
    newLogId,
  ]);
}
