import { afterEach, describe, expect, it } from 'vitest';
import { HubInfoSchema, MeResponseSchema } from '../../contracts';
import { type Host } from '../create-host';
import { pairDevice, postJson } from '../test-support/devices';
import { closeAllHosts, startTestHost, TEST_TOKEN } from '../test-support/test-host';
import { ANA, BEN, startTestOidcProvider, type TestOidcProvider } from './test-support/oidc-test-provider';
import { SignInBrowser } from './test-support/sign-in-browser';

const CLIENT_ID = 'askaway-hub-info';
const CLIENT_SECRET = 'hub-info-secret-0123456789abcdef';

const providers: TestOidcProvider[] = [];
afterEach(async () => {
  await closeAllHosts();
  await Promise.all(providers.splice(0).map((provider) => provider.close()));
});

async function teamHub(): Promise<{ host: Host; provider: TestOidcProvider }> {
  const provider = await startTestOidcProvider();
  providers.push(provider);
  const host = await startTestHost({
    people: { issuer: provider.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
  });
  provider.addClient({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [`${host.url}/auth/callback`] });
  return { host, provider };
}

async function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(url, { method, headers });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: response.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(text) as unknown) : null,
  };
}

/** Signs in at the provider as the app's browser would and pairs the device the sign-in's link names. */
async function signInAndPair(host: Host, person: typeof ANA): Promise<{ deviceId: string; credential: string }> {
  const browser = new SignInBrowser();
  const { callbackUrl } = await browser.signInAtProvider(host.url, person);
  const landed = await browser.get(callbackUrl);
  const link = new URL(landed.location ?? '');
  const code = new URLSearchParams(link.hash.slice(1)).get('code') ?? '';
  const paired = await postJson(`${link.origin}/api/pair`, { code, name: `${person.name}'s phone`, platform: 'Test' });
  expect(paired.status).toBe(200);
  return paired.json as { deviceId: string; credential: string };
}

describe('[R21.30] GET /api/hub: whether this hub signs people in, for anyone at its address', () => {
  it('[R21.30] a hub with an identity provider names the sign-in path and the provider’s host, and nothing of its client', async () => {
    const { host, provider } = await teamHub();
    const reply = await get(`${host.url}/api/hub`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(HubInfoSchema.parse(reply.json)).toEqual({
      signIn: { path: '/auth/sign-in', provider: new URL(provider.issuer).host },
    });
    expect(reply.text).not.toContain(CLIENT_SECRET);
    expect(reply.text).not.toContain(CLIENT_ID);
  });

  it('[R21.30] a hub without one says so, and has no sign-in pages', async () => {
    const host = await startTestHost();
    const reply = await get(`${host.url}/api/hub`);
    expect(reply.status).toBe(200);
    expect(HubInfoSchema.parse(reply.json)).toEqual({ signIn: null });
    expect((await get(`${host.url}/auth/sign-in`)).text).not.toContain('/auth/start');
  });

  it('[R21.30] answers GET only, and refuses a page from an origin the hub does not allow', async () => {
    const host = await startTestHost();
    expect((await get(`${host.url}/api/hub`, {}, 'POST')).status).toBe(405);
    const foreign = await get(`${host.url}/api/hub`, { Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const own = await get(`${host.url}/api/hub`, { Origin: new URL(host.url).origin });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(new URL(host.url).origin);
  });
});

describe('[R21.31] GET /api/me: whose this device is, for this device only', () => {
  it('[R21.31] a signed-in person’s device learns its person, name, email and role; a linked device learns it has none', async () => {
    const { host } = await teamHub();
    const ana = await signInAndPair(host, ANA);
    const ben = await signInAndPair(host, BEN);
    const linked = await pairDevice(host, 'Shared tablet');

    const anas = await get(`${host.url}/api/me`, { Authorization: `Bearer ${ana.credential}` });
    expect(anas.status).toBe(200);
    const anaMe = MeResponseSchema.parse(anas.json);
    expect(anaMe).toEqual({
      deviceId: ana.deviceId,
      person: { id: expect.any(String) as string, name: ANA.name, email: ANA.email, role: 'owner' },
    });
    // Nothing of the provider's identity, nor the groups the provider sent.
    expect(anas.text).not.toContain(ANA.sub);
    expect(anas.text).not.toContain('groups');

    const bens = MeResponseSchema.parse(
      (await get(`${host.url}/api/me`, { Authorization: `Bearer ${ben.credential}` })).json,
    );
    expect(bens.person).toEqual(expect.objectContaining({ name: BEN.name, role: 'member' }));
    expect(JSON.stringify(bens)).not.toContain(ANA.email);

    const linkedMe = await get(`${host.url}/api/me`, { Authorization: `Bearer ${linked.credential}` });
    expect(MeResponseSchema.parse(linkedMe.json)).toEqual({ deviceId: linked.deviceId, person: null });
  });

  it('[R21.31] no credential, the agent token, a made-up or a revoked device’s credential are refused, with no one’s data', async () => {
    const { host } = await teamHub();
    const ana = await signInAndPair(host, ANA);
    const forged = `aw_d_${ana.deviceId}_${'A'.repeat(43)}`;
    for (const headers of <Record<string, string>[]>[
      {},
      { Authorization: `Bearer ${TEST_TOKEN}` },
      { Authorization: `Bearer ${forged}` },
      { Authorization: 'Basic YW5hOmFuYQ==' },
    ]) {
      const reply = await get(`${host.url}/api/me`, headers);
      expect(reply.status, JSON.stringify(headers)).toBe(401);
      expect(reply.headers.get('www-authenticate')).toBe('Bearer realm="askaway-device"');
      expect(reply.text).not.toContain(ANA.email);
      expect(reply.text).not.toContain(ANA.name);
    }
    expect((await host.devices.revoke(ana.deviceId)).ok).toBe(true);
    const revoked = await get(`${host.url}/api/me`, { Authorization: `Bearer ${ana.credential}` });
    expect(revoked.status).toBe(401);
    expect(revoked.text).not.toContain(ANA.email);
  });

  it('[R21.31] on a hub without sign-in a paired device has no person; other methods and foreign origins are refused', async () => {
    const host = await startTestHost();
    const device = await pairDevice(host);
    const auth = { Authorization: `Bearer ${device.credential}` };
    expect(MeResponseSchema.parse((await get(`${host.url}/api/me`, auth)).json)).toEqual({
      deviceId: device.deviceId,
      person: null,
    });
    expect((await get(`${host.url}/api/me`, auth, 'POST')).status).toBe(405);
    expect((await get(`${host.url}/api/me`, { ...auth, Origin: 'https://evil.example' })).status).toBe(403);
  });
});
