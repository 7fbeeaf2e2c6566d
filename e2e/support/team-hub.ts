import { randomBytes } from 'node:crypto';
import { freePort, startNginxBalancer, type NginxBalancer } from '../../lib/host/test-support/nginx-balancer';
import { startPgCluster, type PgCluster } from '../../lib/host/store/test-support/pg-cluster';
import { asAdmin } from '../../lib/host/store/test-support/pg-test-database';
import { startTestHost, type TestHost } from './host';

/**
 * A throwaway PostgreSQL cluster for a worker's tests, stopped when the worker ends (a worker fixture). Playwright
 * reads a fixture's first parameter as a destructuring pattern: it must be one, even empty.
 */
export async function provideCluster({}: object, provide: (cluster: PgCluster) => Promise<void>): Promise<void> {
  const cluster = await startPgCluster();
  await provide(cluster);
  await cluster.stop();
}

/** initdb and a first start: about 2 s on a quiet machine, far longer beside a busy suite. */
export const CLUSTER_FIXTURE_OPTIONS = { scope: 'worker', timeout: 90_000 } as const;

/** Two `askaway start --database` replicas on a fresh database, nginx (docs/team-hub/nginx.conf) in front. */
export interface TeamHub {
  replicas: TestHost[];
  balancer: NginxBalancer;
  token: string;
  stop(): Promise<void>;
}

/**
 * As docs/team-hub/compose.yaml runs them: the same database and agent token, nginx's address as the public URL.
 * `extraArgs` go to both replicas (a team hub's `--oidc-*`).
 */
export async function startTeamHub(cluster: PgCluster, extraArgs: readonly string[] = []): Promise<TeamHub> {
  const name = `askaway_e2e_team_${randomBytes(6).toString('hex')}`;
  await asAdmin(`CREATE DATABASE ${name}`, [], cluster.adminUrl);
  const url = new URL(cluster.adminUrl);
  url.pathname = `/${name}`;
  const port = await freePort();
  const token = `e2e-team-${randomBytes(8).toString('hex')}`;
  const args = ['--database', url.toString(), '--public-url', `http://127.0.0.1:${port}`, ...extraArgs];
  const replicas = await Promise.all([startTestHost(token, { args }), startTestHost(token, { args })]);
  const balancer = await startNginxBalancer({
    port,
    replicas: replicas.map((replica) => `127.0.0.1:${replica.port}`),
  });
  return {
    replicas,
    balancer,
    token,
    async stop() {
      await balancer.stop();
      for (const replica of replicas) {
        replica.assertNoSecretsInOutput();
        await replica.stop();
      }
      await asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, [], cluster.adminUrl);
    },
  };
}

/**
 * The replicas an agent asked `question` through: those whose output has its line. Each question's lines come from
 * the replica its agent announced to (R20.48), while which agents are connected is shared by all (R20.66).
 */
export function askedThrough(replicas: readonly TestHost[], question: string): TestHost[] {
  return replicas.filter((replica) =>
    replica
      .output()
      .split('\n')
      .some((line) => /^\d\d:\d\d:\d\d \? /.test(line) && line.includes(question)),
  );
}
