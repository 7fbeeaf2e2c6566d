import { afterEach, describe, expect, it } from 'vitest';
import { type Host } from '../create-host';
import { setUpPgTestLogs } from '../store/test-support/pg-test-logs';
import { postJson } from '../test-support/devices';
import { closeAllHosts, startTestHost, TEST_TOKEN } from '../test-support/test-host';
import { ANA, BEN, startTestOidcProvider, type TestOidcProvider } from './test-support/oidc-test-provider';
import { SignInBrowser } from './test-support/sign-in-browser';

// People on a team hub whose log is in PostgreSQL, with two replicas behind one public address (R21.14): the
// replicas share the log and the client secret, nothing else.

const CLIENT_ID = 'askaway-team';
const CLIENT_SECRET = 'team-client-secret-0123456789abcdef';
const logs = setUpPgTestLogs();
const providers: TestOidcProvider[] = [];

afterEach(async () => {
  await closeAllHosts();
  await Promise.all(providers.splice(0).map((provider) => provider.close()));
});

/** Two replicas on one log; both name the first one's address as the public URL, as a load balancer's would be. */
async function twoReplicas(): Promise<[Host, Host]> {
  const provider = await startTestOidcProvider();
  providers.push(provider);
  const url = await logs.freshLogUrl();
  const people = { issuer: provider.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
  const a = await startTestHost({ databaseUrl: url, token: TEST_TOKEN, people });
  const b = await startTestHost({ databaseUrl: url, token: TEST_TOKEN, people, publicUrl: a.url });
  provider.addClient({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [`${a.url}/auth/callback`] });
  return [a, b];
}

/** Sends `url` (on `from`'s address) to `to` instead, with the cookies the browser holds for `from`. */
function onReplica(browser: SignInBrowser, url: string, from: Host, to: Host): string {
  const jar = browser.cookies.get(new URL(from.url).origin);
  browser.cookies.set(new URL(to.url).origin, new Map(jar));
  return url.replace(from.url, to.url);
}

describe('[R21.14] people on a team hub with two replicas on PostgreSQL', () => {
  it('[R21.14] a sign-in started on one replica finishes on the other, and the device pairs on either as the person’s', async () => {
    const [a, b] = await twoReplicas();
    const browser = new SignInBrowser();
    const { callbackUrl } = await browser.signInAtProvider(a.url, ANA);
    const landed = await browser.get(onReplica(browser, callbackUrl, a, b));
    expect(landed.status).toBe(303);
    const link = new URL(landed.location ?? '');
    const code = new URLSearchParams(link.hash.slice(1)).get('code');
    // The pairing code and the sign-in it belongs to were written by b; a pairs the device with them.
    const paired = await postJson(`${a.url}/api/pair`, { code, name: 'Ana’s Pixel', platform: 'Test' });
    expect(paired.status).toBe(200);
    const { deviceId } = paired.json as { deviceId: string };
    expect(a.devices.get(deviceId)?.person).toEqual(expect.objectContaining({ name: ANA.name, role: 'owner' }));
    await expect.poll(() => b.devices.get(deviceId)?.person?.name).toBe(ANA.name);
  });

  it('[R21.9] two people signing in at once through two replicas make one owner', async () => {
    const [a, b] = await twoReplicas();
    const anas = new SignInBrowser();
    const bens = new SignInBrowser();
    const [ana, ben] = await Promise.all([anas.signInAtProvider(a.url, ANA), bens.signInAtProvider(a.url, BEN)]);
    const replies = await Promise.all([anas.get(ana.callbackUrl), bens.get(onReplica(bens, ben.callbackUrl, a, b))]);
    expect(replies.map((reply) => reply.status)).toEqual([303, 303]);
    await expect.poll(() => b.registry.projection.people.size).toBe(2);
    await expect.poll(() => a.registry.projection.people.size).toBe(2);
    const roles = [...a.registry.projection.people.values()].map((person) => person.role).sort();
    expect(roles).toEqual(['member', 'owner']);
  });
});
