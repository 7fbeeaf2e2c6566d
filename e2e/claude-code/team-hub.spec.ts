import { AFFINITY_COOKIE, nginxMissing } from '../../lib/host/test-support/nginx-balancer';
import { type PgCluster } from '../../lib/host/store/test-support/pg-cluster';
import { AppPage } from '../support/pages';
import { askedThrough, CLUSTER_FIXTURE_OPTIONS, provideCluster, startTeamHub, type TeamHub } from '../support/team-hub';
import { expect, test as base } from './support/fixtures';
import { askUserQuestion, claudeCodeSays, DB_QUESTION, dbQuestion, finish, onPhone, runSdk } from './support/scenarios';

// The real `claude` on a team hub (R20.53, R20.57): its hook reaches the hub through nginx, in front of two
// `askaway start --database` replicas on one PostgreSQL database; the real app is on the other replica. The replica
// the hook asked through is SIGKILLed mid-question.

const skipReason = nginxMissing();

const test = base.extend<object, { cluster: PgCluster; team: TeamHub }>({
  cluster: [provideCluster, CLUSTER_FIXTURE_OPTIONS],
  team: [
    async ({ cluster }, provide) => {
      const team = await startTeamHub(cluster);
      await provide(team);
      await team.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  // Claude Code's hooks and the scripted phone reach the hub the way a team's do: through nginx.
  host: [
    async ({ team }, provide) => {
      const [first] = team.replicas;
      if (!first) throw new Error('no replica');
      await provide({ ...first, url: team.balancer.url });
    },
    { scope: 'worker' },
  ],
});

test.skip(skipReason !== undefined, skipReason);

test('[R20.53][R20.57] Claude Code asks through one replica, which dies: the hook re-announces through nginx, and the answer on the phone at the other replica reaches Claude Code', async ({
  claude,
  page,
  remote,
  team,
  workspace,
}) => {
  const marker = 'E2E-team-hub';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_team', { questions: [dbQuestion] })] }]);
  const session = runSdk(claude, ws, `${marker}: set up the service`, { answerAfterMs: 'never' });
  const record = await onPhone(remote, session);

  // nginx sent the hook to one replica; the phone goes to the other, by the affinity cookie nginx would set.
  await expect.poll(() => askedThrough(team.replicas, DB_QUESTION).length).toBe(1);
  const [doomed] = askedThrough(team.replicas, DB_QUESTION);
  const survivor = team.replicas.find((replica) => replica !== doomed);
  if (!doomed || !survivor) throw new Error('two replicas');
  const affinity = await team.balancer.affinityFor(`127.0.0.1:${survivor.port}`);
  await page.context().addCookies([{ name: AFFINITY_COOKIE, value: affinity, url: team.balancer.url }]);
  const phone = new AppPage(page, { ...survivor, url: team.balancer.url });
  await phone.pair('Phone');
  await phone.waitForInteraction(record.requestId);

  await doomed.crash();
  const card = await phone.openCard(record.requestId);
  await card.choose(0, 'SQLite');
  await card.submit();
  await expect(card.receipt).toBeVisible();

  const result = await finish(session, ws, 'toolu_team');
  expect(result.content).toBe(claudeCodeSays.answered(`"${DB_QUESTION}"="SQLite"`));
  await expect(page.getByTestId('card.receipt-applied')).toContainText('Received by the agent');
});
