import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Page } from '@playwright/test';
import {
  ANA,
  BEN,
  startTestOidcProvider,
  type TestOidcProvider,
} from '../lib/host/people/test-support/oidc-test-provider';
import { axeViolationsInSchemes } from './support/axe';
import { expect, test as base } from './support/fixtures';
import { joinMachine, joinWithCode, type JoinedMachine } from './support/machines';
import { type AppPage } from './support/pages';
import { PHONE_SCREEN, reviewShots } from './support/screenshots';
import { asking, chipName, heldQuestions, signedInPhone } from './support/team-people';

// The team in the app (R21.75–R21.89): a real hub started with a real OpenID provider (oidc-provider), two people
// signed in through its own login page, each in their own browser; the hub's operator (a device paired with a link
// from `askaway pair`) manages the team from the app. `--oidc-owner` names someone who never signs in, so Ana and
// Ben both start as members.

const CLIENT_ID = 'askaway-e2e-team';
const CLIENT_SECRET = 'e2e-team-client-secret-0123456789abcdef';
const DESKTOP = { width: 1280, height: 800 };

const test = base.extend<{ provider: TestOidcProvider }>({
  provider: async ({}, provide) => {
    const provider = await startTestOidcProvider();
    await provide(provider);
    await provider.close();
  },
  hostArgs: async ({ provider }, provide) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'askaway-team-app-e2e-'));
    const secretFile = path.join(dir, 'client-secret');
    await writeFile(secretFile, `${CLIENT_SECRET}\n`, { mode: 0o600 });
    await provide([
      '--oidc-issuer',
      provider.issuer,
      '--oidc-client-id',
      CLIENT_ID,
      '--oidc-client-secret-file',
      secretFile,
      '--oidc-owner',
      'boss@example.com',
    ]);
    await rm(dir, { recursive: true, force: true });
  },
});

/** axe in the light and the dark theme (R21.88). */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await axeViolationsInSchemes(page, ['light', 'dark']);
  expect(violations.map((violation) => `${screen} ${violation}`)).toEqual([]);
}

test.describe('the team in the app (R21.75–R21.89)', () => {
  const machines: JoinedMachine[] = [];
  const phones: AppPage[] = [];

  test.beforeEach(({ host, provider }) => {
    provider.addClient({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [`${host.url}/auth/callback`],
    });
  });

  test.afterEach(async () => {
    for (const machine of machines.splice(0)) await machine.remove();
    for (const phone of phones.splice(0)) await phone.page.context().close();
  });

  test('[R21.89][R21.22][R21.76][R21.77][R21.78][R21.79][R21.80][R21.81][R21.82][R21.83][R21.84][R21.85] two people, their own questions and a group’s; a hand-over; who answered; a role changed; a refused attempt in the audit record; a person removed cuts their phone off', async ({
    app: operator,
    browser,
    host,
  }) => {
    test.setTimeout(180_000);
    const { page } = operator;
    await page.setViewportSize(PHONE_SCREEN);
    const ana = await signedInPhone(browser, host, ANA, 'Ana’s Pixel');
    const ben = await signedInPhone(browser, host, BEN, 'Ben’s Pixel');
    phones.push(ana, ben);

    // Settings → People: the operator's device manages; both people are members.
    await operator.goto('/settings');
    const people = page.getByTestId('settings.people');
    const anaRow = people.locator('[data-testid="settings.person-row"]', { hasText: ANA.name });
    const benRow = people.locator('[data-testid="settings.person-row"]', { hasText: BEN.name });
    await expect(anaRow).toHaveAttribute('data-role', 'member');
    await expect(benRow).toHaveAttribute('data-role', 'member');
    await expect(anaRow).toContainText(ANA.email);
    await expect(anaRow.getByTestId('settings.person-seen')).toContainText('Last signed in');
    // Devices name their person (R21.83).
    const anaDevice = page.locator('[data-testid="settings.device-row"]', { hasText: 'Ana’s Pixel' });
    await expect(anaDevice.getByTestId('settings.device-person')).toHaveText(`${ANA.name} · Member`);

    // Groups: a new group with both of them, from the picker (R21.81).
    await page.getByTestId('settings.group-new').click();
    const groupDialog = page.getByTestId('settings.group-dialog');
    await expect(groupDialog).toBeVisible();
    await groupDialog.getByTestId('settings.group-save').click();
    await expect(groupDialog.getByTestId('settings.group-error')).toContainText('Give the group a name');
    await groupDialog.getByTestId('settings.group-name').fill('CI runners');
    await groupDialog.getByRole('checkbox', { name: new RegExp(ANA.name) }).check();
    await groupDialog.getByRole('checkbox', { name: new RegExp(BEN.name) }).check();
    await groupDialog.getByTestId('settings.group-save').click();
    await expect(groupDialog).toBeHidden();
    const groupRow = page.locator('[data-testid="settings.group-row"]', { hasText: 'CI runners' });
    await expect(groupRow.getByTestId('settings.group-members')).toHaveText(`${ANA.name}, ${BEN.name}`);
    await expectAccessible(page, 'settings → people and groups');
    await reviewShots(page, 'settings-people', 'team', PHONE_SCREEN);
    await reviewShots(page, 'settings-people', 'team-desktop', DESKTOP);

    // Invite a machine for the group (R21.82): the command, a copy button, the expiry; the CI box joins with it.
    await groupRow.getByRole('button', { name: 'Invite a machine for CI runners' }).click();
    const invite = page.getByTestId('settings.invite-dialog');
    const command = invite.getByTestId('settings.invite-command');
    await expect(command).toContainText(`askaway join ${host.url}`);
    await expect(invite.getByTestId('settings.invite-expiry')).toContainText('Expires at');
    await expect(invite.getByTestId('settings.invite-copy')).toBeVisible();
    await reviewShots(page, 'invite', 'team', PHONE_SCREEN);
    await reviewShots(page, 'invite', 'team-desktop', DESKTOP);
    const code = (await command.textContent())?.trim().split(/\s+/).at(-1);
    if (!code) throw new Error('the invite shows no code');
    await page.keyboard.press('Escape');
    await expect(invite).toBeHidden();
    const ci = await joinWithCode(host, 'ci-box', code);
    machines.push(ci);
    const anaLaptop = await joinMachine(host, 'ana-laptop', ['--for', ANA.email]);
    machines.push(anaLaptop);
    const benLaptop = await joinMachine(host, 'ben-laptop', ['--for', BEN.email]);
    machines.push(benLaptop);

    const forAna = `${anaLaptop.id}:${await anaLaptop.runtime.ask(asking('Ana: which cache?'))}`;
    const forBen = `${benLaptop.id}:${await benLaptop.runtime.ask(asking('Ben: which queue?'))}`;
    const forCi = `${ci.id}:${await ci.runtime.ask(asking('CI: retry the flaky job?'))}`;

    // Each sees their own question and the group's, never the other's (R21.17, R21.18), named on the row.
    await operator.waitForInteraction(forBen);
    await ana.waitForInteraction(forAna);
    await ana.waitForInteraction(forCi);
    await ben.waitForInteraction(forBen);
    await ben.waitForInteraction(forCi);
    expect(await heldQuestions(ana)).toEqual([forAna, forCi].sort());
    expect(await heldQuestions(ben)).toEqual([forBen, forCi].sort());
    await expect(chipName(ana.inbox.item(forAna))).toHaveText(ANA.name);
    await expect(ana.inbox.item(forCi).getByTestId('person-chip')).toHaveAttribute('data-owner-kind', 'group');
    await expect(chipName(ana.inbox.item(forCi))).toHaveText('CI runners');
    await reviewShots(ana.page, 'inbox', 'team', PHONE_SCREEN);
    await reviewShots(ana.page, 'inbox', 'team-desktop', DESKTOP);

    // A member has no Hand over… (R21.77).
    const anaCard = await ana.openCard(forAna);
    await expect(chipName(anaCard.root)).toHaveText(ANA.name);
    await expect(ana.page.getByTestId('card.hand-over')).toHaveCount(0);
    await reviewShots(ana.page, 'card', 'team', PHONE_SCREEN);
    await reviewShots(ana.page, 'card', 'team-desktop', DESKTOP);

    // The operator makes Ana an admin (R21.79).
    await anaRow.getByRole('button', { name: `Make ${ANA.name} an admin` }).click();
    await expect(anaRow).toHaveAttribute('data-role', 'admin');
    await expect(anaRow.getByTestId('settings.person-role')).toHaveText('Admin');
    await expect(benRow.getByRole('button', { name: `Make ${BEN.name} an admin` })).toBeVisible();

    // Ana, an admin now, hands her question to Ben from its card (R21.77).
    await ana.openCard(forAna);
    await ana.page.getByTestId('card.hand-over').click();
    const handOver = ana.page.getByTestId('card.hand-over-dialog');
    await expect(handOver).toBeVisible();
    await expect(handOver.getByTestId('card.hand-over-person-option')).toHaveCount(1);
    await expect(handOver.getByTestId('card.hand-over-confirm')).toBeDisabled();
    await expectAccessible(ana.page, 'hand-over dialog');
    await reviewShots(ana.page, 'hand-over', 'team', PHONE_SCREEN);
    await handOver.getByRole('radio', { name: new RegExp(BEN.name) }).check();
    await handOver.getByTestId('card.hand-over-confirm').click();
    await expect(handOver).toBeHidden();
    await expect(ana.page.getByTestId('card.handed-over-status')).toHaveText(`Handed to ${BEN.name}.`);
    await expect(ana.page.getByTestId('handed-over')).toHaveText(`Handed to ${BEN.name} by ${ANA.name}`);

    // Ben's phone: the question is his now, and says who handed it to him (R21.76).
    await ben.waitForInteraction(forAna);
    await ben.goto('/');
    await expect(ben.inbox.item(forAna).getByTestId('handed-over')).toHaveText(`Handed to you by ${ANA.name}`);
    const benCard = await ben.openCard(forAna);
    await expect(ben.page.getByTestId('handed-over')).toHaveText(`Handed to you by ${ANA.name}`);
    await reviewShots(ben.page, 'handed-over', 'team', PHONE_SCREEN);
    await reviewShots(ben.page, 'handed-over', 'team-desktop', DESKTOP);
    await benCard.choose(0, 'SQLite');
    await benCard.submit();
    // The receipt names who answered, on which device (R21.22).
    await expect(ben.page.getByTestId('card.receipt-by')).toContainText(`Answered by ${BEN.name} on Ben’s Pixel at `);
    await reviewShots(ben.page, 'receipt', 'team', PHONE_SCREEN);
    await reviewShots(ben.page, 'receipt', 'team-desktop', DESKTOP);
    await expect.poll(() => anaLaptop.runtime.resolutionsFor(forAna.split(':').slice(1).join(':')).length).toBe(1);

    // History says it to Ana too.
    await ana.waitForInteraction(forAna, 'resolved');
    await ana.goto('/history');
    const line = ana.page.locator(`[data-testid="history.item"][data-request-id="${forAna}"]`);
    await expect(line.getByTestId('history.summary')).toContainText(`Answered by ${BEN.name} on Ben’s Pixel at `);
    await expect(chipName(line)).toHaveText(ANA.name);

    // Ben's credential answering Ana's question is refused as if it did not exist, and recorded (R21.35, R21.61).
    const forAnaAgain = `${anaLaptop.id}:${await anaLaptop.runtime.ask(asking('Ana: which region?'))}`;
    await ana.waitForInteraction(forAnaAgain);
    const benCredential = (await ben.storedPairing())?.credential;
    if (!benCredential) throw new Error('Ben’s phone keeps no credential');
    const attempt = await ben.page.request.post(`${host.url}/api/respond`, {
      headers: { Authorization: `Bearer ${benCredential}` },
      data: { requestId: forAnaAgain, clientResponseId: 'ben-tries-anas', response: { action: 'decline' } },
    });
    expect(await attempt.json()).toMatchObject({ ack: { ok: false, error: { code: 'unknown-interaction' } } });

    // History → Audit, for Ana, an admin now: the refused attempt is marked (R21.84, R21.85).
    await ana.goto('/history');
    await ana.page.getByTestId('history.show.option').filter({ hasText: 'Audit' }).click();
    const refusedLine = ana.page.locator('[data-testid="audit.item"][data-outcome="refused"]').first();
    await expect(refusedLine).toHaveAttribute('data-action', 'decline');
    await expect(refusedLine).toContainText(`${BEN.name} declined question`);
    await expect(refusedLine.getByTestId('audit.refused')).toHaveText('Refused');
    await expect(ana.page.locator('[data-testid="audit.item"][data-action="answer"]').first()).toContainText(
      `${BEN.name} answered question`,
    );
    await expectAccessible(ana.page, 'history → audit');
    await reviewShots(ana.page, 'audit', 'team', PHONE_SCREEN);
    await reviewShots(ana.page, 'audit', 'team-desktop', DESKTOP);
    // A member, and the operator's pairing-link device, have no Audit choice (R21.67).
    await ben.goto('/history');
    await expect(ben.page.getByTestId('history.list')).toBeVisible();
    await expect(ben.page.getByTestId('history.show')).toHaveCount(0);
    await operator.goto('/history');
    await expect(page.getByTestId('history.list')).toBeVisible();
    await expect(page.getByTestId('history.show')).toHaveCount(0);

    // Removing Ben cuts his phone off at once (R21.79, R21.20).
    await operator.goto('/settings');
    await benRow.getByRole('button', { name: `Remove ${BEN.name}` }).click();
    const removal = page.getByTestId('settings.person-remove-dialog');
    await expect(removal).toContainText(`Remove ${BEN.name}?`);
    await expect(removal).toContainText('revoked at once');
    await reviewShots(page, 'remove-person', 'team', PHONE_SCREEN);
    await page.getByTestId('settings.person-remove-dialog-confirm').click();
    await expect(benRow).toHaveAttribute('data-removed', 'true');
    await expect(benRow.getByTestId('settings.person-seen')).toContainText('Removed');
    await expect(ben.page.getByTestId('pair-again')).toContainText('This device was removed from');
    await expect.poll(() => benLaptop.runtime.isConnected()).toBe(false);
  });

  test('[R21.71][R21.78][R21.80] a member’s Settings show themselves and their groups, with nothing to manage, and the hub-wide preferences unchangeable; a personal invite shows its command', async ({
    browser,
    host,
  }) => {
    test.setTimeout(90_000);
    const ben = await signedInPhone(browser, host, BEN, 'Ben’s Pixel');
    phones.push(ben);
    await ben.goto('/settings');
    const rows = ben.page.getByTestId('settings.person-row');
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText(BEN.name);
    await expect(rows).toContainText('You');
    await expect(ben.page.getByTestId('settings.person-role-change')).toHaveCount(0);
    await expect(ben.page.getByTestId('settings.group-new')).toHaveCount(0);
    await expect(ben.page.getByTestId('settings.groups-empty')).toHaveText('You are in no group.');
    // The hub-wide preferences apply to everyone: a member sees them, without the controls to change them (R21.71).
    await expect(ben.page.getByTestId('settings.team-locked')).toHaveText(
      'On this team hub only the owner and admins change this: it applies to everyone.',
    );
    await expect(ben.page.getByTestId('settings.away')).toBeDisabled();
    await expect(ben.page.getByTestId('settings.auto-toggle')).toBeDisabled();
    await expect(ben.page.getByTestId('settings.push-delay')).toBeDisabled();
    // Their machine list is their own: no hub row, and how to add one is the invite above (R21.53).
    await expect(ben.page.getByTestId('settings.machines-empty')).toHaveText(
      'No machine of yours or your groups’ yet.',
    );
    await expect(ben.page.getByTestId('settings.machine-row')).toHaveCount(0);
    await ben.page.getByTestId('settings.away-section').scrollIntoViewIfNeeded();
    await reviewShots(ben.page, 'settings-member', 'team', PHONE_SCREEN);
    await reviewShots(ben.page, 'settings-member', 'team-desktop', DESKTOP);

    await ben.page.getByTestId('settings.invite-machine').click();
    const invite = ben.page.getByTestId('settings.invite-dialog');
    await expect(invite.getByTestId('settings.invite-command')).toContainText(`askaway join ${host.url}`);
    const code = (await invite.getByTestId('settings.invite-command').textContent())?.trim().split(/\s+/).at(-1);
    if (!code) throw new Error('the invite shows no code');
    await invite.getByRole('button', { name: 'Done' }).click();
    await expect(invite).toBeHidden();
    // The focus is back on the button that opened it (R21.88).
    await expect(ben.page.getByTestId('settings.invite-machine')).toBeFocused();
    const laptop = await joinWithCode(host, 'ben-laptop', code);
    machines.push(laptop);
    const asked = `${laptop.id}:${await laptop.runtime.ask(asking('Ben: which queue?'))}`;
    await ben.waitForInteraction(asked);
    await ben.goto('/');
    await expect(chipName(ben.inbox.item(asked))).toHaveText(BEN.name);
  });
});
