import { ANA, BEN, type TestOidcProvider } from '../lib/host/people/test-support/oidc-test-provider';
import { type PgCluster } from '../lib/host/store/test-support/pg-cluster';
import { nginxMissing } from '../lib/host/test-support/nginx-balancer';
import { expect, test as base } from './support/fixtures';
import { ownerCli, type TestHost } from './support/host';
import { provideOidcProvider, registerHub, withOidcFlags, type OidcClient } from './support/oidc-hub';
import { joinMachine, type JoinedMachine } from './support/machines';
import { type AppPage } from './support/pages';
import { CLUSTER_FIXTURE_OPTIONS, provideCluster, startTeamHub, type TeamHub } from './support/team-hub';
import { asking, chipName, heldQuestions, signedInPhone } from './support/team-people';

// The team in the app on a team hub (R21.14, R21.89): two `askaway start --database --oidc-issuer …` replicas on one
// PostgreSQL database behind nginx (docs/team-hub/nginx.conf), the real OpenID provider, and two people signed in at
// its login page, each phone pinned by nginx's cookie to a different replica. Machines join through the replica
// their person's phone is not on, and the operator works from the other replica's terminal.

const skipReason = nginxMissing();
const CLIENT: OidcClient = {
  clientId: 'askaway-e2e-team-hub',
  clientSecret: 'e2e-team-hub-client-secret-0123456789abcdef',
  owner: 'boss@example.com',
};

const test = base.extend<{ provider: TestOidcProvider; team: TeamHub }, { cluster: PgCluster }>({
  cluster: [provideCluster, CLUSTER_FIXTURE_OPTIONS],
  provider: provideOidcProvider,
  team: ({ cluster, provider }, provide) =>
    withOidcFlags(provider, CLIENT, async (flags) => {
      const team = await startTeamHub(cluster, flags);
      registerHub(provider, CLIENT, team.balancer.url);
      await provide(team);
      await team.stop();
    }),
});

test.describe('people on a team hub behind nginx (R21.14)', () => {
  test.skip(skipReason !== undefined, skipReason);
  const machines: JoinedMachine[] = [];
  const phones: AppPage[] = [];

  test.afterEach(async () => {
    for (const machine of machines.splice(0)) await machine.remove();
    for (const phone of phones.splice(0)) await phone.page.context().close();
  });

  test('[R21.14][R21.89] two people on two replicas: each their own questions and their group’s; an admin made on one replica hands a question over to the other’s phone; a removal cuts a phone off', async ({
    browser,
    team,
  }) => {
    test.setTimeout(180_000);
    const [first, second] = team.replicas;
    if (!first || !second) throw new Error('two replicas');
    // The app and its sockets go through nginx; nginx's cookie sends each phone to one replica.
    const through = (replica: TestHost): TestHost => ({ ...replica, url: team.balancer.url });
    const affinity = (replica: TestHost) => team.balancer.affinityFor(`127.0.0.1:${replica.port}`);
    const [onFirst, onSecond] = [await affinity(first), await affinity(second)];
    const ana = await signedInPhone(browser, through(first), ANA, 'Ana’s Pixel', onFirst);
    const ben = await signedInPhone(browser, through(second), BEN, 'Ben’s Pixel', onSecond);
    phones.push(ana, ben);
    // Everything each phone asked of nginx (pages, sign-in, pairing, its socket) reached its own replica.
    const servedFor = (cookie: string) =>
      new Set(
        team.balancer
          .accessLog()
          .filter((line) => line.affinity === cookie && !line.request.includes('askaway-balancer-probe'))
          .map((line) => line.replicas.at(-1)),
      );
    expect(servedFor(onFirst)).toEqual(new Set([`127.0.0.1:${first.port}`]));
    expect(servedFor(onSecond)).toEqual(new Set([`127.0.0.1:${second.port}`]));

    // The operator, at the second replica's terminal: a group of both, its shared machine, each person's machine.
    ownerCli(second, ['groups', 'create', 'CI runners', '--members', `${ANA.email},${BEN.email}`]);
    const ci = await joinMachine(second, 'ci-box', ['--for-group', 'CI runners']);
    machines.push(ci);
    const anaLaptop = await joinMachine(second, 'ana-laptop', ['--for', ANA.email]);
    machines.push(anaLaptop);
    const benLaptop = await joinMachine(first, 'ben-laptop', ['--for', BEN.email]);
    machines.push(benLaptop);

    const anaRuntimeId = await anaLaptop.runtime.ask(asking('Ana: which cache?'));
    const forAna = `${anaLaptop.id}:${anaRuntimeId}`;
    const forBen = `${benLaptop.id}:${await benLaptop.runtime.ask(asking('Ben: which queue?'))}`;
    const forCi = `${ci.id}:${await ci.runtime.ask(asking('CI: retry the flaky job?'))}`;

    // Each phone holds its person's question and the group's, asked through the other replica (R21.17, R21.18).
    await ana.waitForInteraction(forAna);
    await ana.waitForInteraction(forCi);
    await ben.waitForInteraction(forBen);
    await ben.waitForInteraction(forCi);
    expect(await heldQuestions(ana)).toEqual([forAna, forCi].sort());
    expect(await heldQuestions(ben)).toEqual([forBen, forCi].sort());
    await expect(chipName(ana.inbox.item(forCi))).toHaveText('CI runners');
    await expect(chipName(ben.inbox.item(forBen))).toHaveText(BEN.name);

    // Made an admin at the first replica's terminal, Ana's phone on the first replica sees everything at once.
    ownerCli(first, ['people', 'role', ANA.email, 'admin']);
    await ana.waitForInteraction(forBen);

    // Ana hands her question to Ben, whose phone is on the other replica.
    await ana.openCard(forAna);
    await ana.page.getByTestId('card.hand-over').click();
    const handOver = ana.page.getByTestId('card.hand-over-dialog');
    await handOver.getByRole('radio', { name: new RegExp(BEN.name) }).check();
    await handOver.getByTestId('card.hand-over-confirm').click();
    await expect(handOver).toBeHidden();
    await ben.waitForInteraction(forAna);
    await ben.goto('/');
    await expect(ben.inbox.item(forAna).getByTestId('handed-over')).toHaveText(`Handed to you by ${ANA.name}`);

    // Ben answers on his replica; Ana's laptop, joined through the other, gets it once; the receipt names Ben.
    const card = await ben.openCard(forAna);
    await card.choose(0, 'SQLite');
    await card.submit();
    await expect(ben.page.getByTestId('card.receipt-by')).toContainText(`Answered by ${BEN.name} on Ben’s Pixel at `);
    await expect.poll(() => anaLaptop.runtime.resolutionsFor(anaRuntimeId).length).toBe(1);
    await ana.waitForInteraction(forAna, 'resolved');

    // Removed at the first replica's terminal, Ben's phone on the second is cut off at once.
    ownerCli(first, ['people', 'revoke', BEN.email]);
    await expect(ben.page.getByTestId('pair-again')).toContainText('This device was removed from');
    await expect.poll(() => benLaptop.runtime.isConnected()).toBe(false);
  });
});
