import net from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { HostStartError } from '../../errors';
import { delivered } from '../test-support/event-store-contract';
import { asAdmin } from '../test-support/pg-test-database';
import { databaseOf, unusedPort, setUpPgTestLogs } from '../test-support/pg-test-logs';
import { PgEventStore } from './pg-event-store';

const { databaseUrl, freshLogUrl, open, relay } = setUpPgTestLogs();

describe('[R20.17] PostgreSQL log: a database that is not there', () => {
  const password = () => new URL(databaseUrl()).password;

  it('[R20.17] refuses at open when nothing listens on the port, naming the URL without its password', async () => {
    const url = new URL(databaseUrl());
    url.port = String(await unusedPort());
    const refused = PgEventStore.open(url.toString(), { log: () => undefined });
    await expect(refused).rejects.toBeInstanceOf(HostStartError);
    await expect(refused).rejects.toThrow(
      /Cannot reach the event log's database at postgres:\/\/askaway:\*\*\*@127\.0\.0\.1:\d+\/askaway_test_\w+: the connection was refused/,
    );
    await expect(refused).rejects.not.toThrow(password());
  });

  it('[R20.17] refuses a wrong password without showing either password', async () => {
    const url = new URL(databaseUrl());
    url.password = 'not-the-password-42';
    const refused = PgEventStore.open(url.toString(), { log: () => undefined });
    await expect(refused).rejects.toThrow(
      /refused the user name or password .*password authentication failed for user "askaway"/,
    );
    await expect(refused).rejects.not.toThrow('not-the-password-42');
    await expect(refused).rejects.not.toThrow(password());
  });

  it('[R20.17] says so when the server asks for a password the URL does not give', async () => {
    const url = new URL(databaseUrl());
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
    const url = new URL(databaseUrl());
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
    const { url: through, proxy } = await relay(url);
    const store = await open(through, { connectTimeoutMs: 2_000 });
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
      [databaseOf(url)],
    );
    await vi.waitFor(() =>
      expect(lines.join('\n')).toMatch(
        /closed an idle connection \(terminating connection due to administrator command\)/,
      ),
    );
    expect((await store.append([delivered('b')])).map((event) => event.seq)).toEqual([2]);
  });
});
