import { describe, expect, it } from 'vitest';
import { HostStartError } from '../../errors';
import { delivered } from '../test-support/event-store-contract';
import { asAdmin, PG_TEST_CA_ENV } from '../test-support/pg-test-database';
import { databaseOf, setUpPgTestLogs } from '../test-support/pg-test-logs';
import { PgEventStore } from './pg-event-store';

const { freshLogUrl, open, relay } = setUpPgTestLogs();

/** The log's pooled connections (application_name askaway) and whether each is encrypted. */
async function tlsOfConnections(url: string): Promise<boolean[]> {
  const rows = await asAdmin<{ ssl: boolean }>(
    `SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
      WHERE a.datname = $1 AND a.application_name = 'askaway'`,
    [databaseOf(url)],
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
    const otherName = await relay(withParams(url, { sslmode: 'verify-full', sslrootcert: ca() }), '127.0.0.2');
    await expect(PgEventStore.open(otherName.url, quiet)).rejects.toThrow(
      /cannot verify \(Hostname\/IP does not match certificate's altnames/,
    );
    expect(await tlsOfConnections(url)).toEqual([]);
  });

  it('[R20.18] refuses at start when a certificate file the URL names cannot be read', async () => {
    const url = await freshLogUrl();
    const refused = PgEventStore.open(withParams(url, { sslmode: 'verify-full', sslrootcert: '/nonexistent/ca.pem' }));
    await expect(refused).rejects.toBeInstanceOf(HostStartError);
    await expect(refused).rejects.toThrow(
      /Cannot open the event log in .*: ENOENT: no such file or directory, open '\/nonexistent\/ca\.pem'/,
    );
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
