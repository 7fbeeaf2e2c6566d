import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Socket } from 'socket.io-client';
import { REMOTE_NAMESPACE, REMOTE_PROTOCOL_VERSION, type PushClientToServerEvents } from '../contracts';
import { type Host } from './create-host';
import { startPush } from './push/start-push';
import { type PushRuntime } from './push/create-push-service';
import { makeSubscription, startRecordingServer } from './push/test-helpers';
import { closeAllClients, connectRemote, tryConnect } from './test-support/clients';
import { postJson, redeemPairingCode } from './test-support/devices';
import { closeAllHosts, startTestHost } from './test-support/test-host';

// R16.9: a phone that pairs again while it still holds a working credential for this host replaces its
// own entry instead of leaving a dead one behind.

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  closeAllClients();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await closeAllHosts();
});

async function startWithPush(): Promise<{ host: Host; push: PushRuntime }> {
  const host = await startTestHost();
  // The suite's push service is on loopback: the owner's to allow (R12.20).
  const push = await startPush(host, { collapseWindowMs: 10, allowPrivatePush: true });
  cleanups.push(() => push.close());
  return { host, push };
}

/** `POST /api/pair` as the app sends it when it already holds a credential for this host. */
async function repair(host: Host, replaces: unknown, name = 'Pixel 8') {
  const { code } = await host.mintPairingCode();
  return postJson(`${host.url}/api/pair`, { code, name, platform: 'Test · Node', replaces });
}

const refusal = (host: Host, credential: string) =>
  tryConnect(host.url, REMOTE_NAMESPACE, { credential, protocolVersion: REMOTE_PROTOCOL_VERSION });

describe('[R16.9] pairing again replaces this device', () => {
  it('[R16.9] with a valid old credential: one entry, the old name, the old credential revoked like from Settings', async () => {
    const { host, push } = await startWithPush();
    const endpoint = await startRecordingServer();
    cleanups.push(() => endpoint.close());
    const old = await redeemPairingCode(host.url, (await host.mintPairingCode()).code, 'Anna’s phone');
    const laptop = await redeemPairingCode(host.url, (await host.mintPairingCode()).code, 'Laptop');
    const oldTab = await connectRemote(host.url, old.credential);
    const { subscription } = makeSubscription(`${endpoint.url}/push/anna`);
    // The app's socket carries the push messages too (lib/client/push/channel).
    const pushChannel = oldTab.socket as unknown as Socket<Record<string, never>, PushClientToServerEvents>;
    expect(await pushChannel.emitWithAck('push:subscribe', { subscription })).toMatchObject({ ok: true });
    expect((await push.service.status(old.deviceId)).subscribed).toBe(true);
    const watcher = await connectRemote(host.url, laptop.credential);
    const seq = host.registry.projection.seq;

    const response = await repair(host, { credential: old.credential, keepName: true });
    expect(response.status).toBe(200);
    const fresh = response.json as { deviceId: string; credential: string };
    expect(fresh.deviceId).not.toBe(old.deviceId);

    expect(host.devices.list()).toEqual([
      expect.objectContaining({ id: laptop.deviceId, name: 'Laptop' }),
      expect.objectContaining({ id: fresh.deviceId, name: 'Anna’s phone', platform: 'Test · Node' }),
    ]);
    // Paired and revoked in one commit: no moment shows the phone twice.
    const events = await host.registry.readSince(seq, 100);
    expect(events.map((event) => event.type)).toEqual(['device.paired', 'device.revoked']);
    expect(events[1]).toMatchObject({ deviceId: old.deviceId, byDeviceId: fresh.deviceId });
    expect(new Set(events.map((event) => event.at)).size).toBe(1);

    // As a revocation from Settings: live connections dropped, push gone, the credential refused.
    await vi.waitFor(() => expect(oldTab.socket.connected).toBe(false));
    expect(oldTab.events.some((event) => event.type === 'device.revoked' && event.deviceId === old.deviceId)).toBe(
      true,
    );
    expect(await push.service.status(old.deviceId)).toEqual({ subscribed: false, ntfyTopicUrl: null, ntfyTopics: [] });
    expect(await refusal(host, old.credential)).toMatchObject({ code: 'device-revoked' });
    const phone = await connectRemote(host.url, fresh.credential);
    expect(phone.socket.connected).toBe(true);
    await vi.waitFor(() =>
      expect(watcher.events.filter((event) => event.type.startsWith('device.')).map((event) => event.type)).toEqual([
        'device.paired',
        'device.revoked',
      ]),
    );
    expect(watcher.socket.connected).toBe(true);
  });

  it('[R16.9] a name the person typed wins over the old one', async () => {
    const host = await startTestHost();
    const old = await redeemPairingCode(host.url, (await host.mintPairingCode()).code, 'Old name');
    const response = await repair(host, { credential: old.credential, keepName: false }, 'Work profile');
    expect(response.status).toBe(200);
    expect(host.devices.list()).toEqual([expect.objectContaining({ name: 'Work profile' })]);
  });

  it('[R16.9] a revoked, unknown or foreign old credential still pairs and revokes nothing else', async () => {
    const host = await startTestHost();
    const other = await startTestHost();
    const revoked = await redeemPairingCode(host.url, (await host.mintPairingCode()).code, 'Revoked');
    const kept = await redeemPairingCode(host.url, (await host.mintPairingCode()).code, 'Kept');
    expect((await host.devices.revoke(revoked.deviceId)).ok).toBe(true);
    const foreign = await redeemPairingCode(other.url, (await other.mintPairingCode()).code, 'Elsewhere');
    const forged = `${kept.credential.slice(0, -4)}AAAA`;
    const unknown = `aw_d_0123456789abcdef_${'A'.repeat(43)}`;

    for (const [index, credential] of [revoked.credential, foreign.credential, forged, unknown].entries()) {
      const seq = host.registry.projection.seq;
      const response = await repair(host, { credential, keepName: true }, `New ${index}`);
      expect(response.status).toBe(200);
      expect((await host.registry.readSince(seq, 100)).map((event) => event.type)).toEqual(['device.paired']);
    }
    expect(host.devices.list().map((device) => device.name)).toEqual(['Kept', 'New 0', 'New 1', 'New 2', 'New 3']);
    expect(await connectRemote(host.url, kept.credential)).toMatchObject({ socket: { connected: true } });
    expect(other.devices.list().map((device) => device.name)).toEqual(['Elsewhere']);
  });

  it('[R16.9] a malformed old credential is a 400 that changes nothing and spends no code', async () => {
    const host = await startTestHost();
    const old = await redeemPairingCode(host.url, (await host.mintPairingCode()).code, 'Phone');
    const malformed: unknown[] = [
      { credential: 'not a credential', keepName: true },
      { credential: host.adminToken, keepName: true },
      { credential: old.credential },
      { credential: old.credential, keepName: 'yes' },
      { credential: old.credential, keepName: true, extra: 1 },
      old.credential,
    ];
    const { code } = await host.mintPairingCode();
    const seq = host.registry.projection.seq;
    for (const replaces of malformed) {
      const response = await postJson(`${host.url}/api/pair`, { code, name: 'Thief', platform: 'p', replaces });
      expect(response).toMatchObject({
        status: 400,
        json: { error: { code: 'invalid-request', message: expect.stringMatching(/replaces/) } },
      });
    }
    expect(host.registry.projection.seq).toBe(seq);
    expect(host.devices.list()).toEqual([expect.objectContaining({ id: old.deviceId, name: 'Phone' })]);
    expect(await connectRemote(host.url, old.credential)).toMatchObject({ socket: { connected: true } });
    // The body was refused before the code was looked at: the code still pairs.
    expect(await host.codes.count('pair-device')).toBe(1);
    expect((await redeemPairingCode(host.url, code, 'Second')).deviceId).not.toBe(old.deviceId);
  });
});
