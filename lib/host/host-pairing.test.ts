import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION, REMOTE_NAMESPACE, REMOTE_PROTOCOL_VERSION, RUNTIME_NAMESPACE } from '../contracts';
import { expectItem } from '../core/test-support/expect-item';
import { hashSecret } from './auth/credential-format';
import { closeAllClients, connectRemote, tryConnect } from './test-support/clients';
import { pairDevice, postJson, redeemPairingCode } from './test-support/devices';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

const pairRequest = (code: string, name = 'Phone') => ({ code, name, platform: 'Test · Node' });

describe('[R16.2][R16.3] pairing over HTTP', () => {
  it('[R16.2] a code from the host becomes a device credential once; reusing it changes nothing', async () => {
    const host = await startTestHost();
    const { code, link, expiresAt } = await host.mintPairingCode();
    expect(link).toBe(`${host.url}/pair#code=${code}`);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    const paired = await redeemPairingCode(host.url, code, 'Anna’s phone');
    expect(paired).toEqual({
      deviceId: expect.stringMatching(/^[0-9a-f]{16}$/),
      credential: expect.stringMatching(new RegExp(`^aw_d_${paired.deviceId}_`)),
      hostName: host.hostName,
    });
    expect(host.devices.list()).toEqual([
      expect.objectContaining({ id: paired.deviceId, name: 'Anna’s phone', platform: 'Test · Node', online: false }),
    ]);
    const seq = host.registry.projection.seq;

    const again = await postJson(`${host.url}/api/pair`, pairRequest(code, 'Thief'));
    expect(again.status).toBe(410);
    expect(again.json).toEqual({
      error: {
        code: 'pairing-code-invalid',
        message: expect.stringMatching(/already used or has expired: a link works once, for 10 minutes.+askaway pair/),
      },
    });
    expect(host.registry.projection.seq).toBe(seq);
    expect(host.devices.list()).toHaveLength(1);
  });

  it('[R20.49][R16.3] behind a trusted proxy failures count per forwarded client; without one the header is ignored', async () => {
    const pairLimits = {
      perAddress: { capacity: 2, refillPerSecond: 0.001 },
      global: { capacity: 100, refillPerSecond: 1 },
      failurePauseMs: 1,
    };
    const guess = (url: string, client: string) =>
      postJson(`${url}/api/pair`, pairRequest('GUESS'), { 'X-Forwarded-For': client }).then((reply) => reply.status);
    const proxied = await startTestHost({ pairLimits, trustedProxies: ['127.0.0.1'] });
    const spent = [await guess(proxied.url, '198.51.100.1'), await guess(proxied.url, '198.51.100.1')];
    expect([...spent, await guess(proxied.url, '198.51.100.1')]).toEqual([410, 410, 429]);
    // Another client behind the same proxy has its own budget.
    expect(await guess(proxied.url, '198.51.100.2')).toBe(410);

    // Reached directly, a client cannot pick its address: every header is the peer's one budget.
    const direct = await startTestHost({ pairLimits });
    expect([
      await guess(direct.url, '198.51.100.1'),
      await guess(direct.url, '198.51.100.2'),
      await guess(direct.url, '198.51.100.3'),
    ]).toEqual([410, 410, 429]);
  });

  it('[R16.2] a code past its TTL is refused', async () => {
    const host = await startTestHost({ pairTtlMs: 50 });
    const { code } = await host.mintPairingCode();
    await vi.waitFor(async () => expect(await host.codes.count('pair-device')).toBe(0));
    const late = await postJson(`${host.url}/api/pair`, pairRequest(code));
    expect(late).toMatchObject({ status: 410, json: { error: { code: 'pairing-code-invalid' } } });
    expect(host.devices.list()).toEqual([]);
  });

  it('[R16.3] failed attempts are counted and slowed per address and overall; a valid code always pairs, even from the flooded address', async () => {
    const host = await startTestHost({
      pairLimits: {
        perAddress: { capacity: 3, refillPerSecond: 0.001 },
        global: { capacity: 100, refillPerSecond: 1 },
        failurePauseMs: 1,
      },
    });
    const statuses = [];
    for (let attempt = 0; attempt < 5; attempt += 1)
      statuses.push((await postJson(`${host.url}/api/pair`, pairRequest(`GUESS-${attempt}`))).status);
    expect(statuses).toEqual([410, 410, 410, 429, 429]);
    // The owner shares the guesser's address (a tunnel, tailscale serve): their code still pairs at once.
    const { code } = await host.mintPairingCode();
    expect(await postJson(`${host.url}/api/pair`, pairRequest(code))).toMatchObject({ status: 200 });
    expect(host.devices.list()).toHaveLength(1);
    // And everyone's limit, spent by guesses from many places, does not lock them out either.
    const crowded = await startTestHost({
      pairLimits: {
        perAddress: { capacity: 100, refillPerSecond: 1 },
        global: { capacity: 2, refillPerSecond: 0.001 },
        failurePauseMs: 1,
      },
    });
    for (let attempt = 0; attempt < 4; attempt += 1) await postJson(`${crowded.url}/api/pair`, pairRequest('GUESS'));
    const limited = await postJson(`${crowded.url}/api/pair`, pairRequest('GUESS'));
    expect(limited).toMatchObject({ status: 429, json: { error: { code: 'rate-limited' } } });
    expect(
      await postJson(`${crowded.url}/api/pair`, pairRequest((await crowded.mintPairingCode()).code)),
    ).toMatchObject({
      status: 200,
    });

    // Only failures count: valid codes pair any number of devices from one address.
    const household = await startTestHost({
      pairLimits: {
        perAddress: { capacity: 2, refillPerSecond: 0.001 },
        global: { capacity: 2, refillPerSecond: 0.001 },
      },
    });
    const paired = [];
    for (let device = 0; device < 5; device += 1)
      paired.push(
        (await postJson(`${household.url}/api/pair`, pairRequest((await household.mintPairingCode()).code))).status,
      );
    expect(paired).toEqual([200, 200, 200, 200, 200]);
    expect(household.devices.list()).toHaveLength(5);

    const other = await startTestHost();
    const escape = await postJson(`${other.url}/api/pair`, { code: 'x', name: 'Phone\u001b[2J', platform: 'p' });
    expect(escape).toMatchObject({
      status: 400,
      json: { error: { message: expect.stringMatching(/control characters/) } },
    });
    const bad = await postJson(`${other.url}/api/pair`, { code: 'x', name: '', platform: 'p', extra: 1 });
    expect(bad).toMatchObject({
      status: 400,
      json: { error: { code: 'invalid-request', message: expect.stringMatching(/name/) } },
    });
  });

  it('[R16.3] a page from a foreign origin cannot pair; an allowed one gets CORS headers', async () => {
    const host = await startTestHost({ allowedOrigins: ['http://localhost:3000'] });
    const { code } = await host.mintPairingCode();
    const foreign = await postJson(`${host.url}/api/pair`, pairRequest(code), { Origin: 'https://evil.example' });
    expect(foreign).toMatchObject({ status: 403, json: { error: { code: 'origin-not-allowed' } } });
    const preflight = await fetch(`${host.url}/api/pair`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:3000' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    const allowed = await postJson(`${host.url}/api/pair`, pairRequest(code), { Origin: 'http://localhost:3000' });
    expect(allowed.status).toBe(200);
  });
});

describe('[R16.1] each credential where it belongs', () => {
  it('[R16.1][R16.7] the agent token is refused on the remote namespace, with how to pair instead', async () => {
    const host = await startTestHost();
    // What an app from before device credentials sends: the shared token.
    const old = await tryConnect(host.url, REMOTE_NAMESPACE, {
      token: TEST_TOKEN,
      protocolVersion: 1,
      device: { id: 'phone', label: 'Phone' },
    });
    expect(old).toEqual({
      code: 'unauthorized',
      message: expect.stringMatching(/^This is the agent token: it opens the agent side only.+askaway pair/),
    });
    const asCredential = await tryConnect(host.url, REMOTE_NAMESPACE, {
      credential: TEST_TOKEN,
      protocolVersion: REMOTE_PROTOCOL_VERSION,
    });
    expect(asCredential).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('agent token') });
  });

  it('[R16.1] a device credential is refused on the runtime namespace, and named', async () => {
    const host = await startTestHost();
    const { credential } = await pairDevice(host);
    expect(
      await tryConnect(host.url, RUNTIME_NAMESPACE, {
        token: credential,
        protocolVersion: PROTOCOL_VERSION,
        runtimeId: 'r',
      }),
    ).toEqual({
      code: 'unauthorized',
      message: expect.stringMatching(/^This is a device credential: it opens the phone app only/),
    });
    expect(
      await tryConnect(host.url, RUNTIME_NAMESPACE, {
        token: host.adminToken,
        protocolVersion: PROTOCOL_VERSION,
        runtimeId: 'r',
      }),
    ).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('This is the admin token') });
  });

  it('[R16.1] a forged or truncated device credential is refused; the device id comes from the credential', async () => {
    const host = await startTestHost();
    const device = await pairDevice(host, 'Phone');
    const forged = `${device.credential.slice(0, -4)}AAAA`;
    expect(
      await tryConnect(host.url, REMOTE_NAMESPACE, { credential: forged, protocolVersion: REMOTE_PROTOCOL_VERSION }),
    ).toMatchObject({
      code: 'unauthorized',
      message: expect.stringContaining('does not know this device'),
    });
    const remote = await connectRemote(host.url, device.credential);
    expect(expectItem(remote.snapshots, 0).devices).toEqual([
      expect.objectContaining({ id: device.deviceId, name: 'Phone' }),
    ]);
    expect(host.devices.get(device.deviceId)?.online).toBe(true);
  });

  it('[R16.1] no secret travels to remotes: snapshots and events carry no credential or hash', async () => {
    const host = await startTestHost();
    const watcher = await connectRemote(host.url, (await pairDevice(host, 'Watcher')).credential);
    const { code } = await host.mintPairingCode();
    const paired = await redeemPairingCode(host.url, code);
    await vi.waitFor(() => expect(watcher.events.some((event) => event.type === 'device.paired')).toBe(true));
    const secret = paired.credential.split('_').slice(3).join('_');
    expect(host.registry.projection.devices.has(paired.deviceId)).toBe(true);
    const hash = hashSecret(secret);
    const seen = JSON.stringify([
      watcher.snapshots,
      watcher.events,
      await host.registry.readSince(0, 100),
      host.registry.snapshot(),
    ]);
    for (const needle of [secret, hash.toString('hex'), hash.toString('base64'), code])
      expect(seen).not.toContain(needle);
  });
});

describe('[R16.4][R16.5] devices', () => {
  it('[R16.5] revoking drops every connection of that device at once; the other device keeps working', async () => {
    const host = await startTestHost();
    const phone = await pairDevice(host, 'Phone');
    const laptop = await pairDevice(host, 'Laptop');
    const phoneTabs = [
      await connectRemote(host.url, phone.credential),
      await connectRemote(host.url, phone.credential),
    ];
    const other = await connectRemote(host.url, laptop.credential);

    expect(await other.socket.emitWithAck('devices:revoke', { deviceId: phone.deviceId })).toEqual({ ok: true });
    for (const tab of phoneTabs) await vi.waitFor(() => expect(tab.socket.connected).toBe(false));
    // Each tab heard why before it was dropped.
    for (const tab of phoneTabs)
      expect(tab.events.some((event) => event.type === 'device.revoked' && event.deviceId === phone.deviceId)).toBe(
        true,
      );
    expect(
      await tryConnect(host.url, REMOTE_NAMESPACE, {
        credential: phone.credential,
        protocolVersion: REMOTE_PROTOCOL_VERSION,
      }),
    ).toEqual({
      code: 'device-revoked',
      message: `This device was removed from ${host.hostName}. Pair again: run \`askaway pair\` on that computer and open the link it prints.`,
    });
    expect(other.socket.connected).toBe(true);
    expect(await other.socket.emitWithAck('devices:list')).toEqual({
      ok: true,
      devices: [expect.objectContaining({ id: laptop.deviceId, online: true })],
    });
    const revoked = (await host.registry.readSince(0, 100)).find((event) => event.type === 'device.revoked');
    expect(revoked).toMatchObject({ deviceId: phone.deviceId, byDeviceId: laptop.deviceId });
    expect(await other.socket.emitWithAck('devices:revoke', { deviceId: phone.deviceId })).toMatchObject({
      ok: false,
      error: { code: 'unknown-device' },
    });
  });

  it('[R16.4] a device renames itself; answers and the list carry the name; last seen is kept after it leaves', async () => {
    const host = await startTestHost();
    const device = await pairDevice(host, 'Phone');
    const remote = await connectRemote(host.url, device.credential);
    expect(await remote.socket.emitWithAck('device:rename', { name: '  Anna’s phone ' })).toEqual({ ok: true });
    expect(await remote.socket.emitWithAck('device:rename', { name: '' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-message' },
    });
    await vi.waitFor(() => expect(remote.events.some((event) => event.type === 'device.renamed')).toBe(true));
    expect(host.devices.get(device.deviceId)).toMatchObject({ name: 'Anna’s phone', online: true });
    remote.socket.disconnect();
    await vi.waitFor(() => expect(host.devices.get(device.deviceId)?.online).toBe(false));
    expect(host.devices.get(device.deviceId)?.lastSeenAt).toEqual(expect.any(String));
  });
});
