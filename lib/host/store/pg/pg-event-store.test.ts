import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HostEvent } from '../../../contracts';
import { HostStartError } from '../../errors';
import { LogMovedError } from '../event-store';
import { delivered, describeEventStoreContract } from '../test-support/event-store-contract';
import { asAdmin, createDatabase, PG_TEST_CA_ENV, type TestDatabase } from '../test-support/pg-test-database';
import { startTcpProxy, type TcpProxy } from '../test-support/tcp-proxy';
import { PgEventStore, type PgEventStoreOptions } from './pg-event-store';
import { SCHEMA_VERSION } from './pg-schema';

let database: TestDatabase;
beforeAll(async () => {
  database = await createDatabase();
});
afterAll(async () => {
  await database.drop();
});

/** Each log gets a schema of its own in the file's database: as fresh as a new database, and far cheaper. */
async function freshLogUrl(): Promise<string> {
  const schema = `log_${randomBytes(5).toString('hex')}`;
  await asAdmin(`CREATE SCHEMA ${schema}`, [], database.url);
  return withSearchPath(database.url, schema);
}

function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

function schemaOf(url: string): string {
  return /search_path=(\w+)/.exec(new URL(url).searchParams.get('options') ?? '')?.[1] ?? 'public';
}

const opened: PgEventStore[] = [];
async function open(url: string, options: PgEventStoreOptions = {}): Promise<PgEventStore> {
  const store = await PgEventStore.open(url, { log: () => undefined, ...options });
  opened.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

/** Runs SQL on the log's own schema as the superuser. */
function onLog<Row extends Record<string, unknown>>(url: string, sql: string, values: unknown[] = []) {
  return asAdmin<Row>(sql, values, url);
}

describeEventStoreContract('postgres', async () => open(await freshLogUrl()));

describe('[R20.13] PostgreSQL log: appends racing from several replicas', () => {
  it('[R20.13] every seq is read exactly once, in order and dense, while writers race; only stale afterSeqs are refused', async () => {
    const url = await freshLogUrl();
    const writers = await Promise.all([1, 2, 3, 4, 5].map(() => open(url, { maxConnections: 3 })));
    const reader = await open(url, { maxConnections: 1 });
    const ROUNDS = 60;
    const appended: HostEvent[] = [];
    const refusals: LogMovedError[] = [];
    let done = false;

    const write = async (store: PgEventStore, writer: number) => {
      for (let round = 0; round < ROUNDS; round += 1) {
        const events = Array.from({ length: 1 + (round % 3) }, (_, k) => delivered(`w${writer}-${round}-${k}`));
        if (round % 2 === 0) {
          appended.push(...(await store.append(events)));
          continue;
        }
        // Decide on what was read, as the registry does: another writer may append in between.
        const seen = round % 10 === 1 && round > 1 ? 0 : await store.lastSeq();
        try {
          const stored = await store.append(events, { afterSeq: seen });
          expect(stored[0]?.seq).toBe(seen + 1);
          appended.push(...stored);
        } catch (error) {
          if (!(error instanceof LogMovedError)) throw error;
          expect(error.expectedSeq).toBe(seen);
          expect(error.lastSeq).toBeGreaterThan(seen);
          refusals.push(error);
        }
      }
    };

    const seen: number[] = [];
    const tail = async () => {
      let last = 0;
      for (;;) {
        const finished = done;
        const batch = await reader.readSince(last, 7);
        for (const event of batch) {
          // Never a gap: each batch starts right after what was read before.
          expect(event.seq).toBe(last + 1);
          last = event.seq;
          seen.push(event.seq);
        }
        if (finished && batch.length === 0) return;
      }
    };

    const started = performance.now();
    const reading = tail();
    await Promise.all(writers.map((store, index) => write(store, index + 1)));
    done = true;
    await reading;
    const elapsed = performance.now() - started;

    const lastSeq = await reader.lastSeq();
    expect(lastSeq).toBe(appended.length);
    expect(seen).toEqual(Array.from({ length: lastSeq }, (_, index) => index + 1));
    const read = await reader.readSince(0, lastSeq + 1);
    expect(read).toEqual([...appended].sort((a, b) => a.seq - b.seq));
    // Every writer made two decisions on a seq known to be stale (afterSeq 0 on a log that had moved on).
    expect(refusals.length).toBeGreaterThanOrEqual(writers.length * 3);
    expect(elapsed).toBeGreaterThan(0);
    if (process.env.ASKAWAY_REPORT_RACE) {
      console.info(
        `race: ${writers.length} writers × ${ROUNDS} appends, ${appended.length} events, ${refusals.length} refused, ${Math.round(elapsed)} ms`,
      );
    }
  });
});

describe('[R20.13] PostgreSQL log: a replica that goes silent mid-append', () => {
  it('[R20.13] holds the head lock only until the server ends its stalled transaction; the others then append', async () => {
    const url = await freshLogUrl();
    const proxy = await startTcpProxy(Number(new URL(url).port));
    proxies.push(proxy);
    const through = new URL(url);
    through.port = String(proxy.port);
    const silent = await open(through.toString(), { stalledTransactionMs: 500 });
    const other = await open(url);
    await other.append([delivered('a')]);

    const frozen = proxy.freezeAfter('FOR UPDATE');
    const stuck = silent.append([delivered('never')]);
    stuck.catch(() => undefined);
    await frozen;
    // The silent replica holds the head: its session sits in its transaction, after the lock was granted.
    await vi.waitFor(async () => expect(await sessionsHoldingTheHead(url)).toHaveLength(1));

    expect((await other.append([delivered('b')])).map((event) => event.seq)).toEqual([2]);
    expect(await sessionsHoldingTheHead(url)).toEqual([]);
    expect(
      (await other.readSince(0, 10)).map((event) => event.type === 'interaction.delivered' && event.requestId),
    ).toEqual(['a', 'b']);
    await proxy.close();
    await expect(stuck).rejects.toThrow(/Cannot append to the event log: its database at .* is unreachable/);
  });
});

/** Sessions of this log's database holding a row lock on the head inside a transaction. */
async function sessionsHoldingTheHead(url: string): Promise<number[]> {
  const rows = await asAdmin<{ pid: number }>(
    `SELECT a.pid FROM pg_stat_activity a
      WHERE a.datname = $1 AND a.state = 'idle in transaction' AND a.query LIKE '%FOR UPDATE%'`,
    [new URL(url).pathname.slice(1)],
  );
  return rows.map((row) => row.pid);
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
    await expect(store.readSince(0, 10)).rejects.not.toThrow(new URL(database.url).password);
  });
});

describe('[R20.16] PostgreSQL log: watching for other replicas’ appends', () => {
  it('[R20.16] hears another replica’s append through NOTIFY', async () => {
    const url = await freshLogUrl();
    const watching = await open(url);
    const other = await open(url);
    const heard: number[] = [];
    const stop = watching.watch((seq) => heard.push(seq));
    await vi.waitFor(async () => expect(await listenerPids(url)).toHaveLength(1));
    await other.append([delivered('a'), delivered('b'), delivered('c')]);
    await vi.waitFor(() => expect(heard).toEqual([3]));
    // The last listener gone, the LISTEN connection goes too.
    stop();
    await vi.waitFor(async () => expect(await listenerPids(url)).toEqual([]));
  });

  it('[R20.16] reconnects a listener whose connection the server ended, and hears later appends', async () => {
    const url = await freshLogUrl();
    const lines: string[] = [];
    const watching = await open(url, { log: (line) => lines.push(line) });
    const other = await open(url);
    const heard: number[] = [];
    watching.watch((seq) => heard.push(seq));
    await vi.waitFor(async () => expect(await listenerPids(url)).toHaveLength(1));
    const [pid] = await listenerPids(url);
    await asAdmin('SELECT pg_terminate_backend($1)', [pid]);
    await vi.waitFor(() => expect(lines.join('\n')).toMatch(/Lost the event log's notifications/));
    await vi.waitFor(async () => {
      const pids = await listenerPids(url);
      expect(pids).toHaveLength(1);
      expect(pids).not.toContain(pid);
    });
    await other.append([delivered('a')]);
    await vi.waitFor(() => expect(heard).toEqual([1]));
    expect(lines.join('\n')).toMatch(/Listening to the event log's database .* again/);
    expect(lines.join('\n')).not.toContain(new URL(database.url).password);
  });
});

/** Backends of this log's database that LISTEN (a watcher's dedicated connection). */
async function listenerPids(url: string): Promise<number[]> {
  const rows = await asAdmin<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'askaway log watch'",
    [new URL(url).pathname.slice(1)],
  );
  return rows.map((row) => row.pid);
}

describe('[R20.17] PostgreSQL log: a database that is not there', () => {
  const password = () => new URL(database.url).password;

  it('[R20.17] refuses at open when nothing listens on the port, naming the URL without its password', async () => {
    const url = new URL(database.url);
    url.port = String(await unusedPort());
    const refused = PgEventStore.open(url.toString(), { log: () => undefined });
    await expect(refused).rejects.toBeInstanceOf(HostStartError);
    await expect(refused).rejects.toThrow(
      /Cannot reach the event log's database at postgres:\/\/askaway:\*\*\*@127\.0\.0\.1:\d+\/askaway_test_\w+: the connection was refused/,
    );
    await expect(refused).rejects.not.toThrow(password());
  });

  it('[R20.17] refuses a wrong password without showing either password', async () => {
    const url = new URL(database.url);
    url.password = 'not-the-password-42';
    const refused = PgEventStore.open(url.toString(), { log: () => undefined });
    await expect(refused).rejects.toThrow(
      /refused the user name or password .*password authentication failed for user "askaway"/,
    );
    await expect(refused).rejects.not.toThrow('not-the-password-42');
    await expect(refused).rejects.not.toThrow(password());
  });

  it('[R20.17] says so when the server asks for a password the URL does not give', async () => {
    const url = new URL(database.url);
    url.password = '';
    await expect(PgEventStore.open(url.toString(), { log: () => undefined })).rejects.toThrow(
      /The database at postgres:\/\/askaway@127\.0\.0\.1:\d+\/askaway_test_\w+ asks for a password and the URL gives none/,
    );
  });

  it('[R20.18] says so when the URL asks for TLS and the server does not speak it', async () => {
    // A server that answers PostgreSQL's SSLRequest with "N", as one without ssl = on does.
    const plain = net.createServer((socket) => socket.once('data', () => socket.write('N')));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const address = plain.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const refused = PgEventStore.open(`postgres://askaway:pw-1234@127.0.0.1:${port}/db?sslmode=verify-full`, {
        log: () => undefined,
      });
      await expect(refused).rejects.toThrow(
        `The event log's database at postgres://askaway:***@127.0.0.1:${port}/db?sslmode=verify-full does not accept TLS (The server does not support SSL connections): enable ssl on the server, or say sslmode=disable.`,
      );
    } finally {
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  it('[R20.17] refuses a database that does not exist, and a URL that is not PostgreSQL’s', async () => {
    const url = new URL(database.url);
    url.pathname = '/askaway_missing_db';
    await expect(PgEventStore.open(url.toString(), { log: () => undefined })).rejects.toThrow(
      /database does not exist \(database "askaway_missing_db" does not exist\): create it first/,
    );
    await expect(PgEventStore.open('mysql://u:secret@h/db')).rejects.toThrow(
      'The database URL mysql://u:***@h/db cannot be used: it is a mysql:// URL, not postgres:// or postgresql://.',
    );
    await expect(PgEventStore.open('postgres://u:secret@[bad')).rejects.not.toThrow('secret');
  });

  it('[R20.17] rejects reads and writes clearly while the database is unreachable, and works again when it is back', async () => {
    const url = await freshLogUrl();
    const proxy = await startTcpProxy(Number(new URL(url).port));
    proxies.push(proxy);
    const through = new URL(url);
    through.port = String(proxy.port);
    const store = await open(through.toString(), { connectTimeoutMs: 2_000 });
    await store.append([delivered('a')]);
    await proxy.cut();
    const unreachable =
      /Cannot (append to|read) the event log: its database at postgres:\/\/askaway:\*\*\*@127\.0\.0\.1:\d+\/\S+ is unreachable/;
    await expect(store.append([delivered('b')])).rejects.toThrow(unreachable);
    await expect(store.readSince(0, 10)).rejects.toThrow(unreachable);
    await expect(store.append([delivered('b')])).rejects.not.toThrow(password());
    await proxy.restore();
    expect((await store.append([delivered('c')])).map((event) => event.seq)).toEqual([2]);
    expect((await store.readSince(0, 10)).map((event) => event.seq)).toEqual([1, 2]);
  });

  it('[R20.17] survives the server ending an idle pooled connection, and connects anew', async () => {
    const url = await freshLogUrl();
    const lines: string[] = [];
    const store = await open(url, { log: (line) => lines.push(line) });
    await store.append([delivered('a')]);
    await asAdmin(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [new URL(url).pathname.slice(1)],
    );
    await vi.waitFor(() =>
      expect(lines.join('\n')).toMatch(
        /closed an idle connection \(terminating connection due to administrator command\)/,
      ),
    );
    expect((await store.append([delivered('b')])).map((event) => event.seq)).toEqual([2]);
  });
});

const proxies: TcpProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

/** The log's pooled connections (application_name askaway) and whether each is encrypted. */
async function tlsOfConnections(url: string): Promise<boolean[]> {
  const rows = await asAdmin<{ ssl: boolean }>(
    `SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
      WHERE a.datname = $1 AND a.application_name = 'askaway'`,
    [new URL(url).pathname.slice(1)],
  );
  return rows.map((row) => row.ssl);
}

// The tests' own server speaks TLS with a certificate from a throwaway CA; a server given by hand may not.
describe.skipIf(!process.env[PG_TEST_CA_ENV])('[R20.18] PostgreSQL log: TLS as the URL says', () => {
  const ca = () => process.env[PG_TEST_CA_ENV] ?? '';
  const withParams = (url: string, params: Record<string, string>) => {
    const parsed = new URL(url);
    for (const [name, value] of Object.entries(params)) parsed.searchParams.set(name, value);
    return parsed.toString();
  };
  const quiet = { log: () => undefined };

  it('[R20.18] verifies the server against sslrootcert with sslmode=verify-full, and encrypts', async () => {
    const url = await freshLogUrl();
    const store = await open(withParams(url, { sslmode: 'verify-full', sslrootcert: ca() }));
    await store.append([delivered('a')]);
    expect(await tlsOfConnections(url)).toEqual([true]);
  });

  it('[R20.18] refuses a certificate it cannot verify (unknown CA, another name), saying what to do', async () => {
    const url = await freshLogUrl();
    const unknownCa = PgEventStore.open(withParams(url, { sslmode: 'verify-full' }), quiet);
    await expect(unknownCa).rejects.toBeInstanceOf(HostStartError);
    await expect(unknownCa).rejects.toThrow(
      /The event log's database at postgres:\/\/askaway:\*\*\*@\S+ presented a TLS certificate this machine cannot verify \(unable to verify the first certificate\)\. Name its CA with sslrootcert=<file>, or say sslmode=no-verify/,
    );
    await expect(unknownCa).rejects.not.toThrow(new URL(url).password);
    // The certificate names 127.0.0.1 and localhost; a relay on 127.0.0.2 reaches the same server under another name.
    const relay = await startTcpProxy(Number(new URL(url).port), '127.0.0.2');
    proxies.push(relay);
    const otherName = new URL(withParams(url, { sslmode: 'verify-full', sslrootcert: ca() }));
    otherName.hostname = '127.0.0.2';
    otherName.port = String(relay.port);
    await expect(PgEventStore.open(otherName.toString(), quiet)).rejects.toThrow(
      /cannot verify \(Hostname\/IP does not match certificate's altnames/,
    );
    expect(await tlsOfConnections(url)).toEqual([]);
  });

  it('[R20.18] encrypts without verifying with sslmode=no-verify', async () => {
    const url = await freshLogUrl();
    await (await open(withParams(url, { sslmode: 'no-verify' }))).lastSeq();
    expect(await tlsOfConnections(url)).toEqual([true]);
  });

  it('[R20.18] connects without TLS when the URL says sslmode=disable, as when it says nothing', async () => {
    const url = await freshLogUrl();
    await (await open(withParams(url, { sslmode: 'disable' }))).lastSeq();
    await (await open(url)).lastSeq();
    expect(await tlsOfConnections(url)).toEqual([false, false]);
  });
});
