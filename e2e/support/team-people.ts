import { type Browser, type Locator } from '@playwright/test';
import { type AskUserQuestionInputLike } from '../../lib/contracts';
import { AFFINITY_COOKIE } from '../../lib/host/test-support/nginx-balancer';
import { type TestPerson } from '../../lib/host/people/test-support/oidc-test-provider';
import { expect } from './fixtures';
import { type TestHost } from './host';
import { AppPage } from './pages';
import { singleQuestion } from './payloads';
import { PHONE_SCREEN } from './screenshots';

// What the team hub's end-to-end tests share (R21.89): a phone signed in at the real provider's login page, and what
// its app holds.

/** The one-question payload, asking `question`. */
export function asking(question: string): AskUserQuestionInputLike {
  const [first] = singleQuestion.questions;
  if (!first) throw new Error('singleQuestion has a question');
  return { questions: [{ ...first, question }] };
}

/**
 * A phone of its own (a browser context), signed in at the provider's login page and paired as `person`'s. Behind
 * nginx, `affinity` pins the phone's pages and socket to one replica (nginx's own cookie).
 */
export async function signedInPhone(
  browser: Browser,
  host: TestHost,
  person: TestPerson,
  name: string,
  affinity?: string,
): Promise<AppPage> {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: PHONE_SCREEN });
  if (affinity !== undefined) await context.addCookies([{ name: AFFINITY_COOKIE, value: affinity, url: host.url }]);
  const page = await context.newPage();
  const app = new AppPage(page, host);
  await page.goto(`${host.url}/auth/sign-in`);
  await page.getByTestId('auth.continue').click();
  await expect(page.getByRole('heading', { name: 'Example Corp' })).toBeVisible();
  await page.getByLabel('Login').fill(person.login);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('pair.form')).toHaveAttribute('data-mode', 'link');
  await page.getByTestId('pair.device').fill(name);
  await page.getByTestId('pair.submit').click();
  await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/index.html');
  await app.waitConnected();
  const pairing = await app.storedPairing();
  if (!pairing?.credential) throw new Error('signed in, but no device credential was stored');
  host.rememberSecret(pairing.credential);
  return app;
}

/** What a row's or card's person chip shows (its screen-reader words apart). */
export function chipName(scope: Locator): Locator {
  return scope.getByTestId('person-chip').locator('.chip__text');
}

/** The ids of the questions this phone's app holds: what its hub let it see. */
export function heldQuestions(app: AppPage): Promise<string[]> {
  return app.page.evaluate(() => [...(window.__askaway?.state.host.interactions.keys() ?? [])].sort());
}
