import { describe, expect, it } from 'vitest';
import { type HostEvent } from '../../../contracts';
import { withSeq } from '../event-store';
import { delivered } from '../test-support/event-store-contract';
import { asAdmin } from '../test-support/pg-test-database';
import { schemaOf, setUpPgTestLogs } from '../test-support/pg-test-logs';
import { importLog, type ImportedCredential } from './pg-import';

const { freshLogUrl, open } = setUpPgTestLogs();

const LOG_ID = '0123456789abcdef01234567';
const credentials: ImportedCredential[] = [
  {
    kind: 'device',
    id: 'dev-1',
    secretHash: Buffer.alloc(32, 1),
    createdAt: '2026-01-01T00:00:00.000Z',
    lastSeenAt: '2026-01-02T00:00:00.000Z',
  },
  { kind: 'machine', id: 'm-1', secretHash: Buffer.alloc(32, 2), createdAt: '2026-01-01T00:00:00.000Z' },
];

function eventsOf(count: number): HostEvent[] {
  return withSeq(
    Array.from({ length: count }, (_, index) => delivered(`r${index + 1}`)),
    1,
  );
}

async function* inBatches(events: readonly HostEvent[], size: number, failAfter?: number): AsyncGenerator<HostEvent[]> {
  for (let start = 0; start < events.length; start += size) {
    if (failAfter !== undefined && start >= failAfter) throw new Error('the source broke mid-copy');
    yield events.slice(start, start + size);
  }
}

/** Tables of ours in the log's schema: none until a log is made there. */
async function askawayTables(url: string): Promise<string[]> {
  const rows = await asAdmin<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
    [schemaOf(url)],
    url,
  );
  return rows.map((row) => row.name);
}

describe('[R20.32] importing a whole log into PostgreSQL', () => {
  it('[R20.32] makes the schema with the imported log id, every event at its own seq, and the credentials with their last-seen times', async () => {
    const url = await freshLogUrl();
    const events = eventsOf(25);
    expect(await importLog(url, { logId: LOG_ID, events: inBatches(events, 10), credentials })).toEqual({
      events: 25,
      lastSeq: 25,
      credentials: 2,
    });
    const store = await open(url);
    expect(store.logId).toBe(LOG_ID);
    expect(await store.lastSeq()).toBe(25);
    expect(await store.readSince(0, 100)).toEqual(events);
    expect(await store.credentials.secretHash('device', 'dev-1')).toEqual(Buffer.alloc(32, 1));
    expect(await store.credentials.secretHash('machine', 'm-1')).toEqual(Buffer.alloc(32, 2));
    expect(await store.credentials.lastSeen('device')).toEqual(new Map([['dev-1', '2026-01-02T00:00:00.000Z']]));
    // The team hub appends after the imported head.
    expect((await store.append([delivered('next')]))[0]?.seq).toBe(26);
  });

  it('[R20.32] takes over the id of an empty log a team hub made before', async () => {
    const url = await freshLogUrl();
    const before = await open(url);
    expect(before.logId).not.toBe(LOG_ID);
    await before.close();
    await importLog(url, { logId: LOG_ID, events: inBatches(eventsOf(3), 2), credentials: [] });
    expect((await open(url)).logId).toBe(LOG_ID);
  });

  it('[R20.32] a failure mid-copy leaves the database as it was (no tables), and a second import succeeds', async () => {
    const url = await freshLogUrl();
    const events = eventsOf(30);
    await expect(importLog(url, { logId: LOG_ID, events: inBatches(events, 10, 20), credentials })).rejects.toThrow(
      'the source broke mid-copy',
    );
    expect(await askawayTables(url)).toEqual([]);
    await importLog(url, { logId: LOG_ID, events: inBatches(events, 10), credentials });
    expect(await (await open(url)).lastSeq()).toBe(30);
  });

  it('[R20.32] a failure mid-copy into an existing empty log leaves it empty with its own id', async () => {
    const url = await freshLogUrl();
    const { logId } = await open(url);
    // The second credential collides with the first: the database refuses at the end of the copy.
    const twice = [credentials[0], credentials[0]].filter((credential) => credential !== undefined);
    await expect(
      importLog(url, { logId: LOG_ID, events: inBatches(eventsOf(5), 2), credentials: twice }),
    ).rejects.toThrow(/Cannot import into the event log in .*duplicate key/);
    const after = await open(url);
    expect(after.logId).toBe(logId);
    expect(await after.lastSeq()).toBe(0);
    expect(await after.credentials.secretHash('device', 'dev-1')).toBeUndefined();
  });

  it('[R20.33] refuses a log that holds events, saying how many, and writes nothing', async () => {
    const url = await freshLogUrl();
    const team = await open(url);
    await team.append([delivered('a'), delivered('b')]);
    await team.close();
    const refused = importLog(url, { logId: LOG_ID, events: inBatches(eventsOf(5), 2), credentials });
    await expect(refused).rejects.toThrow(/is not empty \(it holds 2 events and 0 credentials\): nothing was copied/);
    const after = await open(url);
    expect(after.logId).not.toBe(LOG_ID);
    expect(await after.lastSeq()).toBe(2);
    expect(await after.credentials.secretHash('device', 'dev-1')).toBeUndefined();
  });

  it('[R20.33] refuses an empty log while a hub is connected to its database, and a log with a gap', async () => {
    const url = await freshLogUrl();
    const running = await open(url);
    running.watch(() => undefined);
    await expect(importLog(url, { logId: LOG_ID, events: inBatches(eventsOf(2), 2), credentials })).rejects.toThrow(
      /Askaway hubs are connected to the database of .* \(\d+ sessions?\).*: stop the hubs on this log, then migrate again\. Nothing was copied\./,
    );
    // A log made by the import itself has nobody serving it: another log's hub in the same database is no bar.
    const elsewhere = await freshLogUrl();
    await importLog(elsewhere, { logId: LOG_ID, events: inBatches(eventsOf(2), 2), credentials });
    expect((await open(elsewhere)).logId).toBe(LOG_ID);
    await running.close();
    const gap = eventsOf(4).filter((event) => event.seq !== 3);
    await expect(importLog(url, { logId: LOG_ID, events: inBatches(gap, 10), credentials })).rejects.toThrow(
      'The log being imported skips from seq 2 to 4: nothing was copied.',
    );
    expect(await (await open(url)).lastSeq()).toBe(0);
  });
});
