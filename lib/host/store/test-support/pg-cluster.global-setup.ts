import { PG_TEST_CA_ENV, PG_TEST_URL_ENV } from './pg-test-database';
import { startPgCluster } from './pg-cluster';

/**
 * One throwaway PostgreSQL cluster per `vitest run` (the server project), its superuser URL in
 * ASKAWAY_TEST_PG_URL for the test files, which each create their own databases in it, and the CA of its TLS
 * certificate in ASKAWAY_TEST_PG_CA. A URL already set (a developer's own server, a CI service) is used as it
 * is, and no cluster is started.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[PG_TEST_URL_ENV]) return undefined;
  const cluster = await startPgCluster();
  process.env[PG_TEST_URL_ENV] = cluster.adminUrl;
  process.env[PG_TEST_CA_ENV] = cluster.caFile;
  return async () => {
    delete process.env[PG_TEST_URL_ENV];
    delete process.env[PG_TEST_CA_ENV];
    await cluster.stop();
  };
}
