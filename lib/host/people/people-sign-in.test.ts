import { afterEach, describe, expect, it } from 'vitest';
import { type Host } from '../create-host';
import { closeAllClients, connectRemote } from '../test-support/clients';
import { postJson } from '../test-support/devices';
import { closeAllHosts, startTestHost } from '../test-support/test-host';
import { SIGN_IN_COOKIE, SignInCookie, SIGN_IN_TTL_MS } from './sign-in-cookie';
import { ANA, BEN, CY, startTestOidcProvider, type TestOidcProvider } from './test-support/oidc-test-provider';
import { SignInBrowser } from './test-support/sign-in-browser';

const CLIENT_ID = 'askaway-hub';
const CLIENT_SECRET = 'hub-client-secret-0123456789abcdef';

const providers: TestOidcProvider[] = [];
afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
  await Promise.all(providers.splice(0).map((provider) => provider.close()));
});

/** A provider and a hub that signs people in there, on SQLite. */
async function teamHub(options: { ownerEmail?: string } = {}): Promise<{ host: Host; provider: TestOidcProvider }> {
  const provider = await startTestOidcProvider();
  providers.push(provider);
  const host = await startTestHost({
    people: { issuer: provider.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...options },
  });
  provider.addClient({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [`${host.url}/auth/callback`] });
  return { host, provider };
}

/** What the app's /pair page does with the link the callback redirected to. */
async function pairWithLink(link: string, name: string) {
  const url = new URL(link);
  const code = new URLSearchParams(url.hash.slice(1)).get('code') ?? '';
  return postJson(`${url.origin}/api/pair`, { code, name, platform: 'Test · Chromium' });
}

/**
 * The callback URL, sent with this browser's sign-in session changed by `change`, sealed again with the client
 * secret: how a test stands in for someone who knows the state but not the verifier or the nonce.
 */
function callbackWithSession(
  browser: SignInBrowser,
  host: Host,
  callbackUrl: string,
  change: { verifier?: string; nonce?: string },
): string {
  const jar = browser.cookies.get(new URL(host.url).origin);
  const cookie = new SignInCookie(CLIENT_SECRET, false);
  const session = cookie.read(`${SIGN_IN_COOKIE}=${jar?.get(SIGN_IN_COOKIE) ?? ''}`, Date.now());
  if (!session) throw new Error('the browser holds no sign-in session');
  const sealed = cookie.set({ ...session, ...change, expiresAt: Date.now() + SIGN_IN_TTL_MS });
  jar?.set(SIGN_IN_COOKIE, /^askaway_sign_in=([^;]+)/.exec(sealed)?.[1] ?? '');
  return callbackUrl;
}

async function signInAndPair(host: Host, person: typeof ANA, deviceName: string) {
  const browser = new SignInBrowser();
  const { callbackUrl } = await browser.signInAtProvider(host.url, person);
  const landed = await browser.get(callbackUrl);
  expect(landed.status).toBe(303);
  expect(landed.location).toMatch(new RegExp(`^${host.url}/pair#code=`));
  const paired = await pairWithLink(landed.location ?? '', deviceName);
  expect(paired.status).toBe(200);
  return paired.json as { deviceId: string; credential: string };
}

describe('[R21] signing in at the team hub’s OpenID provider', () => {
  it('[R21.5][R21.8][R21.9][R21.12] Ana signs in at the provider’s login page and the browser she pairs is hers; she is the owner, Ben after her a member', async () => {
    const { host, provider } = await teamHub();
    const page = await new SignInBrowser().get(`${host.url}/auth/sign-in`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`href="${host.url}/auth/start"`);
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.headers['referrer-policy']).toBe('no-referrer');

    const anas = await signInAndPair(host, ANA, 'Ana’s Pixel');
    const bens = await signInAndPair(host, BEN, 'Ben’s iPhone');

    const people = [...host.registry.projection.people.values()];
    expect(people).toEqual([
      expect.objectContaining({
        subject: ANA.sub,
        email: ANA.email,
        name: ANA.name,
        role: 'owner',
        groups: ANA.groups,
      }),
      expect.objectContaining({ subject: BEN.sub, email: BEN.email, name: BEN.name, role: 'member' }),
    ]);
    const [ana, ben] = people;
    expect(ana?.issuer).toBe(provider.issuer);
    expect(host.devices.get(anas.deviceId)?.person).toEqual({
      id: ana?.id,
      name: ANA.name,
      email: ANA.email,
      role: 'owner',
    });
    expect(host.devices.get(bens.deviceId)?.person).toEqual(expect.objectContaining({ id: ben?.id, role: 'member' }));
    // A pairing link from `askaway pair` still pairs a device, which belongs to nobody.
    const plain = await host.mintPairingCode();
    const paired = await pairWithLink(plain.link, 'Shared tablet');
    expect(host.devices.get((paired.json as { deviceId: string }).deviceId)?.person).toBeUndefined();
  });

  it('[R21.10] signing in again keeps the person and their role and refreshes what the provider says', async () => {
    const { host } = await teamHub();
    await signInAndPair(host, ANA, 'Phone');
    await signInAndPair(host, ANA, 'Laptop');
    expect([...host.registry.projection.people.values()]).toEqual([
      expect.objectContaining({ subject: ANA.sub, role: 'owner' }),
    ]);
    const owners = host.devices.list().map((device) => device.person?.name);
    expect(owners).toEqual([ANA.name, ANA.name]);
  });

  it('[R21.9] with --oidc-owner, the person with that verified email is the owner, not the first to sign in', async () => {
    const { host } = await teamHub({ ownerEmail: 'BEN@example.com' });
    await signInAndPair(host, ANA, 'Ana’s phone');
    await signInAndPair(host, BEN, 'Ben’s phone');
    const roles = [...host.registry.projection.people.values()].map((person) => [person.name, person.role]);
    expect(roles).toEqual([
      [ANA.name, 'member'],
      [BEN.name, 'owner'],
    ]);
  });

  it('[R21.11] a sign-in the provider refuses gets a page saying so, and no person, device or pairing code', async () => {
    const { host } = await teamHub();
    const browser = new SignInBrowser();
    const { callbackUrl } = await browser.signInAtProvider(host.url, CY);
    expect(new URL(callbackUrl).searchParams.get('error')).toBe('access_denied');
    const seq = host.registry.projection.seq;
    const refused = await browser.get(callbackUrl);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Sign-in refused');
    expect(refused.body).toContain('Cy Novak is not assigned to this application');
    expect(refused.body).toContain('No device was paired');
    expect(host.registry.projection.seq).toBe(seq);
    expect(host.registry.projection.people.size).toBe(0);
    expect(host.devices.list()).toEqual([]);
    expect(await host.codes.count('pair-device')).toBe(0);
  });

  it('[R21.6] the provider’s answer counts only with this browser’s own sign-in session: state, once, not elsewhere', async () => {
    const { host } = await teamHub();
    const browser = new SignInBrowser();
    const { callbackUrl } = await browser.signInAtProvider(host.url, ANA);

    // Another browser (no session) with the same answer: nothing happens.
    const elsewhere = await new SignInBrowser().get(callbackUrl);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toContain('This sign-in has expired');

    // The right browser, but the state changed on the way: refused before the code is used.
    const forged = new URL(callbackUrl);
    forged.searchParams.set('state', 'a-state-this-browser-never-sent-00000');
    const mismatched = await browser.get(forged.href);
    expect(mismatched.status).toBe(502);
    expect(mismatched.body).toContain('did not pass this hub');
    expect(mismatched.body).toContain('unexpected &#34;state&#34; response parameter value');

    // The session was used up by that attempt: the genuine answer no longer works either.
    const replayed = await browser.get(callbackUrl);
    expect(replayed.status).toBe(400);
    expect(host.registry.projection.people.size).toBe(0);
    expect(await host.codes.count('pair-device')).toBe(0);
  });

  it('[R21.5] the authorization request carries an S256 PKCE challenge, a state and a nonce; the code works only with its verifier', async () => {
    const { host } = await teamHub();
    const browser = new SignInBrowser();
    const { callbackUrl, authorizeUrl } = await browser.signInAtProvider(host.url, ANA);
    const asked = new URL(authorizeUrl).searchParams;
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked.get('redirect_uri')).toBe(`${host.url}/auth/callback`);
    expect(asked.get('scope')).toBe('openid email profile');

    // Someone who could seal a session with this sign-in's state and nonce but not its verifier (the cookie is
    // sealed with a key from the client secret, which the test knows) gets no tokens: the provider checks PKCE.
    const wrong = await browser.get(callbackWithSession(browser, host, callbackUrl, { verifier: 'x'.repeat(43) }));
    expect(wrong.status).toBe(502);
    expect(wrong.body).toContain('the provider answered invalid_grant');
    expect(host.registry.projection.people.size).toBe(0);

    // The same resealing with the genuine verifier works: it was the verifier, not the resealing, that failed.
    const other = new SignInBrowser();
    const genuine = await other.signInAtProvider(host.url, ANA);
    const landed = await other.get(callbackWithSession(other, host, genuine.callbackUrl, {}));
    expect(landed.status).toBe(303);
    expect(host.registry.projection.people.size).toBe(1);
  });

  it('[R21.5] an ID token whose nonce is not this sign-in’s is refused', async () => {
    const { host } = await teamHub();
    const browser = new SignInBrowser();
    const { callbackUrl } = await browser.signInAtProvider(host.url, ANA);
    const refused = await browser.get(callbackWithSession(browser, host, callbackUrl, { nonce: 'n'.repeat(43) }));
    expect(refused.status).toBe(502);
    expect(refused.body).toContain('unexpected ID Token &#34;nonce&#34; claim value');
    expect(host.registry.projection.people.size).toBe(0);
  });

  it('[R21.6] a session cookie the hub did not seal, or sealed with another secret, is no session', () => {
    const ours = new SignInCookie(CLIENT_SECRET, true);
    const set = ours.set({ state: 's'.repeat(43), nonce: 'n'.repeat(43), verifier: 'v'.repeat(43), expiresAt: 10_000 });
    expect(set).toMatch(/; Path=\/auth; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);
    const value = /^askaway_sign_in=([^;]+)/.exec(set)?.[1] ?? '';
    expect(ours.read(`a=b; ${SIGN_IN_COOKIE}=${value}`, 9_999)?.state).toBe('s'.repeat(43));
    expect(ours.read(`${SIGN_IN_COOKIE}=${value}`, 10_000)).toBeUndefined();
    expect(new SignInCookie('another-secret', true).read(`${SIGN_IN_COOKIE}=${value}`, 0)).toBeUndefined();
    const flipped = Buffer.from(value, 'base64url');
    flipped[20] = (flipped[20] ?? 0) ^ 1;
    expect(ours.read(`${SIGN_IN_COOKIE}=${flipped.toString('base64url')}`, 0)).toBeUndefined();
  });

  it('[R21.7] a provider that cannot be reached gets a page saying so, and the hub goes on', async () => {
    const provider = await startTestOidcProvider();
    const issuer = provider.issuer;
    await provider.close();
    const lines: string[] = [];
    const host = await startTestHost({
      people: { issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
      log: (line) => lines.push(line),
    });
    const reply = await new SignInBrowser().get(`${host.url}/auth/start`);
    expect(reply.status).toBe(502);
    expect(reply.body).toContain('The sign-in provider cannot be reached');
    expect(lines.join('\n')).toContain(`cannot reach the provider ${issuer}`);
  });

  it('[R21.2] without an issuer there are no sign-in pages and pairing is as before', async () => {
    const host = await startTestHost();
    expect(host.people).toBeUndefined();
    const browser = new SignInBrowser();
    // The app's pages answer every path (its fallback page here, without a build); no sign-in starts.
    expect((await browser.get(`${host.url}/auth/sign-in`)).body).not.toContain('auth.continue');
    expect((await browser.get(`${host.url}/auth/start`)).location).toBeUndefined();
    const { link } = await host.mintPairingCode();
    expect((await pairWithLink(link, 'Phone')).status).toBe(200);
    expect(host.devices.list()[0]?.person).toBeUndefined();
  });

  it('[R21.13] the people’s events and whose each device is never reach a phone’s stream; its device list says', async () => {
    const { host } = await teamHub();
    const anas = await signInAndPair(host, ANA, 'Ana’s Pixel');
    const phone = await connectRemote(host.url, anas.credential);
    const [snapshot] = phone.snapshots;
    expect(snapshot?.devices).toEqual([expect.not.objectContaining({ personId: expect.anything() })]);
    await signInAndPair(host, BEN, 'Ben’s iPhone');
    await expect.poll(() => phone.events.filter((event) => event.type === 'device.paired').length).toBe(1);
    expect(phone.events.map((event) => event.type)).toEqual(['device.paired']);
    expect(JSON.stringify(phone.events)).not.toContain(BEN.email);
    expect(JSON.stringify(phone.events)).not.toContain('personId');
    // The hub's own answer to the device list names the people.
    const listed = await phone.socket.emitWithAck('devices:list');
    expect(listed).toEqual({
      ok: true,
      devices: [
        expect.objectContaining({ name: 'Ana’s Pixel', person: expect.objectContaining({ name: ANA.name }) }),
        expect.objectContaining({ name: 'Ben’s iPhone', person: expect.objectContaining({ name: BEN.name }) }),
      ],
    });
  });
});
