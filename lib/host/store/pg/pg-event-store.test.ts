import { describe, expect, it } from 'vitest';
import { HostStartError } from '../../errors';
import { delivered, describeEventStoreContract } from '../test-support/event-store-contract';
import { asAdmin } from '../test-support/pg-test-database';
import { schemaOf, setUpPgTestLogs } from '../test-support/pg-test-logs';
import { PgEventStore } from './pg-event-store';
import { SCHEMA_VERSION } from './pg-schema';

const { databaseUrl, freshLogUrl, open } = setUpPgTestLogs();

describe('[R20.10] the PostgreSQL log keeps the contract every store keeps', () => {
  describeEventStoreContract('postgres', async () => open(await freshLogUrl()));
});

describe('[R20.15] PostgreSQL log: credentials', () => {
  it('[R20.15] refuses a second credential with the same kind and id, saying so, and keeps the first', async () => {
    const url = await freshLogUrl();
    const store = await open(url);
    const credential = { kind: 'device' as const, id: 'phone-1', createdAt: '2026-01-01T00:00:00.000Z' };
    await store.credentials.add({ ...credential, secretHash: Buffer.alloc(32, 1) });
    await expect(store.credentials.add({ ...credential, secretHash: Buffer.alloc(32, 2) })).rejects.toThrow(
      'A device credential phone-1 exists already',
    );
    // Another replica reads the same table.
    const other = await open(url);
    expect(await other.credentials.secretHash('device', 'phone-1')).toEqual(Buffer.alloc(32, 1));
  });
});

/** Runs SQL on the log's own schema as the superuser. */
function onLog<Row extends Record<string, unknown>>(url: string, sql: string, values: unknown[] = []) {
  return asAdmin<Row>(sql, values, url);
}

describe('[R20.11] PostgreSQL log: its id and events', () => {
  it('[R20.11] keeps its log id and events across reopening, and each replica sees the same log', async () => {
    const url = await freshLogUrl();
    const first = await open(url);
    const events = await first.append([delivered('a'), delivered('b')]);
    const second = await open(url);
    expect(second.logId).toBe(first.logId);
    await first.close();
    const reopened = await open(url);
    expect(reopened.logId).toBe(first.logId);
    expect(await reopened.readSince(0, 10)).toEqual(events);
    expect(await reopened.lastSeq()).toBe(2);
  });

  it('[R20.11] gives two logs in two schemas of one database their own ids', async () => {
    const one = await open(await freshLogUrl());
    const two = await open(await freshLogUrl());
    expect(one.logId).not.toBe(two.logId);
  });
});

describe('[R20.12] PostgreSQL log: schema and migrations', () => {
  it('[R20.12] two replicas opening an empty database at once migrate it once and share one log id', async () => {
    const url = await freshLogUrl();
    const [one, two, three] = await Promise.all([open(url), open(url), open(url)]);
    expect(two?.logId).toBe(one?.logId);
    expect(three?.logId).toBe(one?.logId);
    const versions = await onLog<{ version: number }>(url, 'SELECT version FROM askaway_schema ORDER BY version');
    expect(versions.map((row) => row.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    expect(await onLog(url, 'SELECT * FROM askaway_meta')).toHaveLength(1);
    expect(await onLog(url, 'SELECT * FROM askaway_head')).toEqual([{ id: 1, last_seq: '0' }]);
  });

  it('[R20.12] refuses a schema newer than this build with a message, and leaves the database untouched', async () => {
    const url = await freshLogUrl();
    const store = await open(url);
    await store.append([delivered('a')]);
    await store.close();
    await onLog(url, 'INSERT INTO askaway_schema (version) VALUES ($1)', [SCHEMA_VERSION + 5]);
    const snapshot = () =>
      Promise.all([
        onLog(url, 'SELECT version FROM askaway_schema ORDER BY version'),
        onLog(url, 'SELECT * FROM askaway_meta'),
        onLog(url, 'SELECT * FROM askaway_head'),
        onLog(url, 'SELECT seq, body::text FROM askaway_events ORDER BY seq'),
        onLog(url, 'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1', [
          schemaOf(url),
        ]),
      ]);
    const before = await snapshot();
    const refused = PgEventStore.open(url, { log: () => undefined });
    await expect(refused).rejects.toBeInstanceOf(HostStartError);
    await expect(refused).rejects.toThrow(
      `was written by a newer Askaway (schema ${SCHEMA_VERSION + 5}, this one reads ${SCHEMA_VERSION}). It was left untouched`,
    );
    expect(await snapshot()).toEqual(before);
  });

  it('[R20.12] refuses tables named like its own that carry no schema version', async () => {
    const url = await freshLogUrl();
    await onLog(url, 'CREATE TABLE askaway_events (seq integer)');
    await expect(PgEventStore.open(url, { log: () => undefined })).rejects.toThrow(
      /holds tables Askaway does not know, without a schema version \(askaway_events\)\. It was left untouched/,
    );
    expect(await onLog(url, 'SELECT to_regclass($1) AS t', ['askaway_schema'])).toEqual([{ t: null }]);
  });
});

describe('[R20.14] PostgreSQL log: rows it cannot read', () => {
  it('[R20.14] refuses to read an event row that is not a host event, naming its seq', async () => {
    const url = await freshLogUrl();
    const store = await open(url);
    await store.append([delivered('a')]);
    await onLog(
      url,
      `INSERT INTO askaway_events (seq, type, at, body) VALUES (2, 'nope', 'now', '{"type":"nope","seq":2}')`,
    );
    await onLog(url, 'UPDATE askaway_head SET last_seq = 2');
    expect(await store.readSince(0, 1)).toHaveLength(1);
    await expect(store.readSince(0, 10)).rejects.toThrow(/holds an unreadable event at seq 2: /);
    await expect(store.readSince(0, 10)).rejects.not.toThrow(new URL(databaseUrl()).password);
  });
});
