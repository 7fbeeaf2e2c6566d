import { randomBytes } from 'node:crypto';
import { asAdmin } from '../lib/host/store/test-support/pg-test-database';
import { type PgCluster } from '../lib/host/store/test-support/pg-cluster';
import { startTcpProxy, type TcpProxy } from '../lib/host/store/test-support/tcp-proxy';
import { expect, test as base } from './support/fixtures';
import { singleQuestion } from './support/payloads';
import { CLUSTER_FIXTURE_OPTIONS, provideCluster } from './support/team-hub';

// The phone against a hub whose log is in PostgreSQL (`askaway start --database`): a throwaway cluster per worker,
// a database per test, reached through a relay the test can cut to take the database away.

interface TeamDatabase {
  url: string;
  relay: TcpProxy;
}

const test = base.extend<{ database: TeamDatabase }, { cluster: PgCluster }>({
  cluster: [provideCluster, CLUSTER_FIXTURE_OPTIONS],
  database: async ({ cluster }, provide) => {
    const name = `askaway_e2e_${randomBytes(6).toString('hex')}`;
    await asAdmin(`CREATE DATABASE ${name}`, [], cluster.adminUrl);
    const url = new URL(cluster.adminUrl);
    const relay = await startTcpProxy(Number(url.port));
    url.pathname = `/${name}`;
    url.port = String(relay.port);
    await provide({ url: url.toString(), relay });
    await relay.close();
    await asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, [], cluster.adminUrl);
  },
  hostArgs: async ({ database }, provide) => provide(['--database', database.url]),
});

test.describe('a team hub on PostgreSQL (R20)', () => {
  // A restart of the hub, and an answer retried with a growing delay while the database is away.
  test.describe.configure({ timeout: 60_000 });

  test('[R20.20] a question waits through the hub’s restart, and the phone’s answer reaches the agent once', async ({
    app,
    host,
    runtime,
  }) => {
    expect(host.output()).toMatch(/Log: +PostgreSQL at postgres:\/\/\S+:\*\*\*@127\.0\.0\.1:\d+\/askaway_e2e_/);
    const requestId = await runtime.ask(singleQuestion);
    await host.restart();
    const card = await app.openCard(requestId);
    await card.choose(0, 'SQLite');
    await card.submit();
    await expect(card.receipt).toHaveAttribute('data-state', /delivered|applied/);
    await expect.poll(() => runtime.resolutionsFor(requestId).length).toBe(1);
    expect(runtime.resolutionsFor(requestId)[0]?.response).toEqual({
      action: 'accept',
      content: { answers: { [singleQuestion.questions[0]?.question ?? '']: 'SQLite' } },
    });
  });

  test('[R20.19] while the database is out of reach the answer waits on the phone, and goes through once it is back', async ({
    app,
    database,
    runtime,
  }) => {
    const { page } = app;
    const requestId = await runtime.ask(singleQuestion);
    const card = await app.openCard(requestId);
    await database.relay.cut();
    await card.choose(0, 'SQLite');
    await card.submit();
    await expect(page.getByTestId('card.receipt-status')).toContainText(
      'Kept on this device, sent again shortly: The host cannot save anything right now: its database cannot be reached',
    );
    // Where the database is, and what the driver said, is for the host's log, not for every phone.
    await expect(page.getByTestId('card.receipt-status')).not.toContainText('postgres://');
    // The inbox is still served while the database is away.
    await page.reload();
    await expect(page.getByTestId('card.receipt-status')).toContainText('Kept on this device');
    expect(runtime.resolutionsFor(requestId)).toHaveLength(0);

    await database.relay.restore();
    await expect(card.receipt).toHaveAttribute('data-state', /delivered|applied/, { timeout: 15_000 });
    await expect.poll(() => runtime.resolutionsFor(requestId).length).toBe(1);
    expect(new Set(runtime.resolutionsFor(requestId).map((resolution) => resolution.clientResponseId)).size).toBe(1);
  });
});
