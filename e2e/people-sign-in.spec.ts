import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  ANA,
  CY,
  startTestOidcProvider,
  type TestOidcProvider,
  type TestPerson,
} from '../lib/host/people/test-support/oidc-test-provider';
import { type Page } from '@playwright/test';
import { axeViolationsInSchemes } from './support/axe';
import { ownerCli, type TestHost } from './support/host';
import { AppPage } from './support/pages';
import { expect, test as base } from './support/fixtures';
import { PHONE_SCREEN, reviewShots } from './support/screenshots';

// People on a team hub (R21): `askaway start --oidc-issuer …` against a real OpenID provider (oidc-provider) that
// the test runs, signed in through at the provider's own login page by Chromium.

const CLIENT_ID = 'askaway-e2e';
const CLIENT_SECRET = 'e2e-client-secret-0123456789abcdef';
const DESKTOP = { width: 1280, height: 800 };

/** axe in the light and the dark theme (R21.34): contrast, names, roles of what the screen shows now. */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await axeViolationsInSchemes(page, ['light', 'dark']);
  expect(violations.map((violation) => `${screen} ${violation}`)).toEqual([]);
}

const test = base.extend<{ provider: TestOidcProvider }>({
  provider: async ({}, provide) => {
    const provider = await startTestOidcProvider();
    await provide(provider);
    await provider.close();
  },
  hostArgs: async ({ provider }, provide) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'askaway-people-e2e-'));
    const secretFile = path.join(dir, 'client-secret');
    await writeFile(secretFile, `${CLIENT_SECRET}\n`, { mode: 0o600 });
    await provide([
      '--oidc-issuer',
      provider.issuer,
      '--oidc-client-id',
      CLIENT_ID,
      '--oidc-client-secret-file',
      secretFile,
    ]);
    await rm(dir, { recursive: true, force: true });
  },
});

test.describe('signing in at a team hub (R21)', () => {
  test.beforeEach(({ host, provider }) => {
    provider.addClient({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [`${host.url}/auth/callback`],
    });
  });

  async function signInAtProvider(app: AppPage, hubUrl: string, person: TestPerson, shots = false): Promise<void> {
    await app.page.goto(`${hubUrl}/auth/sign-in`);
    await continueAtProvider(app, person, shots);
  }

  /** From the hub's sign-in page, through the provider's own login page. */
  async function continueAtProvider(app: AppPage, person: TestPerson, shots = false): Promise<void> {
    const { page } = app;
    await expect(page.getByRole('heading', { name: 'Sign in to answer your agents' })).toBeVisible();
    if (shots) {
      await reviewShots(page, 'sign-in', 'people', PHONE_SCREEN);
      await reviewShots(page, 'sign-in', 'people-desktop', DESKTOP);
    }
    await page.getByTestId('auth.continue').click();
    // The provider's own login page.
    await expect(page.getByRole('heading', { name: 'Example Corp' })).toBeVisible();
    await page.getByLabel('Login').fill(person.login);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** Names the device on the pairing screen the sign-in lands on, pairs it and keeps its credential out of logs. */
  async function pairSignedIn(app: AppPage, host: TestHost, name: string): Promise<void> {
    const { page } = app;
    await expect(page.getByTestId('pair.form')).toHaveAttribute('data-mode', 'link');
    await page.getByTestId('pair.device').fill(name);
    await page.getByTestId('pair.submit').click();
    await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/index.html');
    await app.waitConnected();
    const pairing = await app.storedPairing();
    if (!pairing?.credential) throw new Error('signed in, but no device credential was stored');
    host.rememberSecret(pairing.credential);
  }

  test('[R21.32][R21.33] a never-paired phone is offered the sign-in; it goes through the provider’s login page, and Settings says whose the device is', async ({
    page,
    host,
    provider,
  }) => {
    // A provider, a hub, two sign-in screens and, with SCREENSHOTS=1, sixteen review shots.
    test.setTimeout(90_000);
    await page.setViewportSize(PHONE_SCREEN);
    const app = new AppPage(page, host);
    await page.goto(host.url);
    const empty = page.getByTestId('inbox.empty');
    await expect(empty).toHaveAttribute('data-sign-in', 'offered');
    const button = page.getByTestId('sign-in.button');
    await expect(button).toHaveText('Sign in with your company account');
    await expect(page.getByTestId('sign-in.offer')).toContainText(new URL(provider.issuer).host);
    // The pairing guidance stays, below.
    await expect(empty.getByRole('link', { name: 'Pair', exact: true })).toBeVisible();
    await expect(page.getByTestId('connection.banner')).toContainText('askaway pair');
    const box = await button.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);
    await expectAccessible(page, 'unpaired inbox');
    await reviewShots(page, 'unpaired', 'people', PHONE_SCREEN);
    await reviewShots(page, 'unpaired', 'people-desktop', DESKTOP);

    // The pairing screen without a code offers it too, above the form.
    await app.goto('/pair');
    await expect(page.getByTestId('pair.form')).toHaveAttribute('data-sign-in', 'offered');
    await expect(page.getByTestId('pair.form')).toHaveAttribute('data-mode', 'manual');
    await expectAccessible(page, 'pairing screen');
    await reviewShots(page, 'pair-offer', 'people', PHONE_SCREEN);
    await reviewShots(page, 'pair-offer', 'people-desktop', DESKTOP);

    await page.getByTestId('sign-in.button').click();
    await continueAtProvider(app, ANA);
    await pairSignedIn(app, host, 'Ana’s Pixel');
    await app.goto('/settings');
    await expect(page.getByTestId('settings.connection')).toHaveAttribute('data-person', 'someone');
    const signedIn = page.getByTestId('settings.signed-in');
    await expect(signedIn).toContainText('Signed in as');
    await expect(signedIn).toContainText(`${ANA.name} (${ANA.email}) · Owner`);
    await expectAccessible(page, 'settings');
    await reviewShots(page, 'settings-signed-in', 'people', PHONE_SCREEN);
    await reviewShots(page, 'settings-signed-in', 'people-desktop', DESKTOP);
  });

  test('[R21.33] a device paired with a link from `askaway pair` on a team hub belongs to nobody: Settings names no one', async ({
    app,
    page,
  }) => {
    await app.goto('/settings');
    await expect(page.getByTestId('settings.connection')).toHaveAttribute('data-person', 'none');
    await expect(page.getByTestId('settings.signed-in')).toHaveCount(0);
  });

  test('[R21.12][R21.26] Ana signs in at the provider’s login page, lands on the pairing screen, and the device she pairs is hers', async ({
    page,
    host,
  }) => {
    expect(host.output()).toContain(`People:   sign in at ${host.url}/auth/sign-in`);
    expect(host.output()).toContain(`its redirect URL: ${host.url}/auth/callback`);
    const app = new AppPage(page, host);
    await signInAtProvider(app, host.url, ANA, true);
    await expect(page.getByTestId('pair.form')).toHaveAttribute('data-mode', 'link');
    // The one-time code left the address bar at once, as with any pairing link.
    expect(new URL(page.url()).hash).toBe('');
    await page.getByTestId('pair.device').fill('Ana’s Pixel');
    await page.getByTestId('pair.submit').click();
    await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/index.html');
    await app.waitConnected();
    const pairing = await app.storedPairing();
    if (!pairing?.credential || !pairing.deviceId) throw new Error('signed in, but no device credential was stored');
    host.rememberSecret(pairing.credential);

    const listed = ownerCli(host, ['devices']);
    const row = listed.split('\n').find((line) => line.startsWith(pairing.deviceId ?? '-'));
    expect(row).toContain('Ana’s Pixel');
    expect(row).toContain(`${ANA.name} <${ANA.email}>, owner`);
    const json = JSON.parse(ownerCli(host, ['devices', '--json'])) as {
      devices: { id: string; person?: { name?: string; role: string } }[];
    };
    expect(json.devices).toEqual([
      expect.objectContaining({
        id: pairing.deviceId,
        person: expect.objectContaining({ name: ANA.name, role: 'owner' }),
      }),
    ]);
  });

  test('[R21.11][R21.26] a person the provider refuses gets a page that says so, and no device', async ({
    page,
    host,
  }) => {
    const app = new AppPage(page, host);
    await signInAtProvider(app, host.url, CY);
    await expect(page.getByRole('heading', { name: 'Sign-in refused' })).toBeVisible();
    await expect(page.getByTestId('auth.problem')).toContainText('Cy Novak is not assigned to this application');
    await expect(page.getByText('No device was paired.')).toBeVisible();
    await reviewShots(page, 'refused', 'people', PHONE_SCREEN);
    await reviewShots(page, 'refused', 'people-desktop', DESKTOP);
    expect(await app.storedPairing()).toBeNull();
    expect(ownerCli(host, ['devices'])).toContain('No paired devices');
    // Starting again works: the refusal left nothing behind that stands in the way.
    await page.getByTestId('auth.again').click();
    await expect(page.getByTestId('auth.continue')).toBeVisible();
  });
});

base.describe('a hub without an identity provider (R21.2)', () => {
  base('[R21.32] the unpaired screens are as they were: no sign-in offered', async ({ page, host }) => {
    const app = new AppPage(page, host);
    await page.goto(host.url);
    const empty = page.getByTestId('inbox.empty');
    await expect(empty).toHaveAttribute('data-sign-in', 'none');
    await expect(page.getByTestId('sign-in.offer')).toHaveCount(0);
    await expect(empty.getByRole('link', { name: 'Pair', exact: true })).toHaveClass(/button--primary/);
    await app.goto('/pair');
    await expect(page.getByTestId('pair.form')).toHaveAttribute('data-sign-in', 'none');
    await expect(page.getByTestId('sign-in.offer')).toHaveCount(0);
    await expect(page.getByTestId('pair.submit')).toHaveClass(/button--primary/);
    // A pairing link opened from /pair itself would only change the hash: open it as a phone does, afresh.
    await page.goto('about:blank');
    await app.pair();
    await app.goto('/settings');
    await expect(page.getByTestId('settings.connection')).toHaveAttribute('data-person', 'none');
    await expect(page.getByTestId('settings.signed-in')).toHaveCount(0);
  });
});
