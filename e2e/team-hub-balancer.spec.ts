import { AFFINITY_COOKIE, nginxMissing } from '../lib/host/test-support/nginx-balancer';
import { type PgCluster } from '../lib/host/store/test-support/pg-cluster';
import { expect, test as base } from './support/fixtures';
import { askedThrough, CLUSTER_FIXTURE_OPTIONS, provideCluster, startTeamHub, type TeamHub } from './support/team-hub';
import { AppPage } from './support/pages';
import { singleQuestion } from './support/payloads';
import { ScriptedRuntime } from './support/scripted-runtime';

// The real app through nginx (docs/team-hub/nginx.conf as it is) in front of two `askaway start --database`
// replicas on one PostgreSQL database, as docs/team-hub/compose.yaml runs them.

const skipReason = nginxMissing();

const test = base.extend<{ team: TeamHub }, { cluster: PgCluster }>({
  cluster: [provideCluster, CLUSTER_FIXTURE_OPTIONS],
  team: async ({ cluster }, provide) => {
    const team = await startTeamHub(cluster);
    await provide(team);
    await team.stop();
  },
  // Pairing links are minted by a replica (as `askaway pair` does there) and point at nginx (--public-url); the
  // app then reaches every page and socket through nginx.
  host: async ({ team }, provide) => {
    const [first] = team.replicas;
    if (!first) throw new Error('no replica');
    await provide({ ...first, url: team.balancer.url });
  },
  runtime: async ({ team }, provide) => {
    const runtime = new ScriptedRuntime(team.balancer.url, team.token);
    await runtime.connected();
    await provide(runtime);
    runtime.close();
  },
  // Paired by the test itself, once it has chosen the replica nginx sends this browser to.
  app: async ({ page, host }, provide) => provide(new AppPage(page, host)),
});

test.describe('a team hub behind nginx (R20.57)', () => {
  test.skip(skipReason !== undefined, skipReason);
  test.describe.configure({ timeout: 60_000 });

  test('[R20.57] the replica the app and the agent are on is SIGKILLed mid-question: the card stays, once, and the answer reaches the agent once', async ({
    app,
    team,
    runtime,
  }) => {
    const { page } = app;
    // The agent went wherever nginx sent it and asks there; the browser goes there too, by the affinity cookie nginx
    // would set.
    const requestId = await runtime.ask(singleQuestion);
    await expect.poll(() => askedThrough(team.replicas, singleQuestion.questions[0]?.question ?? '').length).toBe(1);
    const [doomed] = askedThrough(team.replicas, singleQuestion.questions[0]?.question ?? '');
    if (!doomed) throw new Error('no replica holds the agent');
    const affinity = await team.balancer.affinityFor(`127.0.0.1:${doomed.port}`);
    await page.context().addCookies([{ name: AFFINITY_COOKIE, value: affinity, url: team.balancer.url }]);
    await app.pair('Phone');
    // Every request the browser made (the pages, the app's files, pairing) reached that one replica.
    const served = team.balancer
      .accessLog()
      .filter((line) => line.affinity === affinity && !line.request.includes('askaway-balancer-probe'))
      .map((line) => line.replicas.at(-1));
    expect(served.length).toBeGreaterThan(3);
    expect(new Set(served)).toEqual(new Set([`127.0.0.1:${doomed.port}`]));

    await app.waitForInteraction(requestId);
    const item = page.locator(`[data-testid="inbox.item"][data-request-id="${requestId}"]`);
    await expect(item).toHaveCount(1);
    // From here on, every frame counts this question's cards in the inbox.
    await page.evaluate((id) => {
      const seen = { min: Number.POSITIVE_INFINITY, max: 0 };
      Object.assign(window, { __cardsSeen: seen });
      const count = () => {
        const cards = document.querySelectorAll(`[data-testid="inbox.item"][data-request-id="${id}"]`).length;
        seen.min = Math.min(seen.min, cards);
        seen.max = Math.max(seen.max, cards);
        requestAnimationFrame(count);
      };
      count();
    }, requestId);
    const connectedBefore = await page.evaluate(() => window.__askaway?.connectedAt ?? 0);

    await doomed.crash();
    // The app comes back through nginx on the other replica, and caught up with it.
    await page.waitForFunction(
      (before) =>
        (window.__askaway?.connectedAt ?? 0) > before &&
        window.__askaway?.state.status === 'connected' &&
        window.__askaway.syncedAt !== null &&
        window.__askaway.syncedAt > before,
      connectedBefore,
    );
    // So does the agent (the survivor is the one replica left), which announces its question there again.
    await expect.poll(() => runtime.isConnected()).toBe(true);
    await expect(item).toHaveCount(1);
    const seen = await page.evaluate(
      () => (window as unknown as { __cardsSeen: { min: number; max: number } }).__cardsSeen,
    );
    expect(seen).toEqual({ min: 1, max: 1 });

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
});
