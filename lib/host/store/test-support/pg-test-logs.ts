import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { PgEventStore, type PgEventStoreOptions } from '../pg/pg-event-store';
import { asAdmin, createDatabase, type TestDatabase } from './pg-test-database';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

export interface PgTestLogs {
  /** The file's database (superuser URL), made before its first test and dropped after its last. */
  databaseUrl(): string;
  /** A new empty log: a schema of its own in the file's database, as fresh as a new database and far cheaper. */
  freshLogUrl(): Promise<string>;
  /** Opens a log, quiet unless `options.log` is given; closed after the test. */
  open(url: string, options?: PgEventStoreOptions): Promise<PgEventStore>;
  /** The same log through a TCP relay the test can cut or freeze (closed after the test). */
  relay(url: string, listenHost?: string): Promise<{ url: string; proxy: TcpProxy }>;
}

/** Registers the hooks of a test file whose tests open PostgreSQL logs in the tests' cluster. */
export function setUpPgTestLogs(): PgTestLogs {
  let database: TestDatabase | undefined;
  const opened: PgEventStore[] = [];
  const proxies: TcpProxy[] = [];
  beforeAll(async () => {
    database = await createDatabase();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  });
  afterAll(async () => {
    await database?.drop();
  });
  const databaseUrl = () => {
    if (!database) throw new Error('the test database is made in beforeAll');
    return database.url;
  };
  return {
    databaseUrl,
    freshLogUrl: async () => {
      const schema = `log_${randomBytes(5).toString('hex')}`;
      await asAdmin(`CREATE SCHEMA ${schema}`, [], databaseUrl());
      const url = new URL(databaseUrl());
      url.searchParams.set('options', `-c search_path=${schema}`);
      return url.toString();
    },
    open: async (url, options = {}) => {
      const store = await PgEventStore.open(url, { log: () => undefined, ...options });
      opened.push(store);
      return store;
    },
    relay: async (url, listenHost) => {
      const through = new URL(url);
      const proxy = await startTcpProxy(Number(through.port), listenHost);
      proxies.push(proxy);
      if (listenHost) through.hostname = listenHost;
      through.port = String(proxy.port);
      return { url: through.toString(), proxy };
    },
  };
}

/** The database a URL names (its path). */
export function databaseOf(url: string): string {
  return new URL(url).pathname.slice(1);
}

/** The schema a log URL keeps its tables in (its search_path option). */
export function schemaOf(url: string): string {
  return /search_path=(\w+)/.exec(new URL(url).searchParams.get('options') ?? '')?.[1] ?? 'public';
}

/** A port on 127.0.0.1 nothing listens on (free a moment ago). */
export async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}
