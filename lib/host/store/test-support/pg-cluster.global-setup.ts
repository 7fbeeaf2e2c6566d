import { PG_TEST_URL_ENV } from './pg-test-database';
import { startPgCluster } from './pg-cluster';

/**
 * One throwaway PostgreSQL cluster per `vitest run` (the server project), its superuser URL in
 * ASKAWAY_TEST_PG_URL for the test files, which each create their own databases in it. A URL already set
 * (a developer's own server, a CI service) is used as it is, and no cluster is started.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[PG_TEST_URL_ENV]) return undefined;
  const cluster = await startPgCluster();
  process.env[PG_TEST_URL_ENV] = cluster.adminUrl;
  return async () => {
    delete process.env[PG_TEST_URL_ENV];
    await cluster.stop();
  };
}
