import { describe, expect, it } from 'vitest';
import { asAdmin } from '../test-support/pg-test-database';
import { setUpPgTestLogs } from '../test-support/pg-test-logs';
import { MIGRATIONS } from './pg-schema';

const logs = setUpPgTestLogs();

describe('[R20.63] the record of notifications sent', () => {
  it('[R20.63] marks questions once, and tells which of a list were marked', async () => {
    const store = await logs.open(await logs.freshLogUrl());
    await store.notifyLedger.markNotified(['q-1', 'q-2']);
    await store.notifyLedger.markNotified(['q-2']);
    expect(await store.notifyLedger.notified(['q-1', 'q-2', 'q-3'])).toEqual(new Set(['q-1', 'q-2']));
    expect(await store.notifyLedger.notified([])).toEqual(new Set());
  });

  it('[R20.63] a log moved to schema 3 counts the questions it already holds as sent', async () => {
    const url = await logs.freshLogUrl();
    // A team hub's log as schema 2 left it, with one question asked.
    const run = (sql: string, values: unknown[] = []) => asAdmin(sql, values, url);
    await run(
      'CREATE TABLE askaway_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const [index, migration] of MIGRATIONS.slice(0, 2).entries()) {
      await run(migration);
      await run('INSERT INTO askaway_schema (version) VALUES ($1)', [index + 1]);
    }
    await run("INSERT INTO askaway_meta (key, value) VALUES ('log_id', 'old-log')");
    await run(
      `INSERT INTO askaway_events (seq, type, at, body) VALUES (1, 'interaction.requested', '2026-01-01T00:00:00.000Z', $1)`,
      [JSON.stringify({ seq: 1, type: 'interaction.requested', interaction: { requestId: 'asked-before' } })],
    );
    await run('UPDATE askaway_head SET last_seq = 1');

    const store = await logs.open(url);
    expect(await store.notifyLedger.notified(['asked-before', 'asked-after'])).toEqual(new Set(['asked-before']));
  });
});
