import { afterEach, describe, expect, it, vi } from 'vitest';
import { PairingCodeResponseSchema, REMOTE_NAMESPACE, REMOTE_PROTOCOL_VERSION } from '../lib/contracts';
import { expectItem } from '../lib/core/test-support/expect-item';
import { closeAllClients, connectRemote, tryConnect } from '../lib/host/test-support/clients';
import { postJson, redeemPairingCode } from '../lib/host/test-support/devices';
import { cliIn as cli, killAllCli, startCliHost } from '../lib/host/test-support/spawn-cli';
import { tempDir } from '../lib/host/test-support/test-host';

const TOKEN = 'devices-cli-token';
const SLOW = { timeout: 15_000, interval: 50 };

afterEach(() => {
  closeAllClients();
  killAllCli();
});

describe('askaway pair and askaway devices (real CLI processes against a real host)', () => {
  it('[R16.2][R16.4][R16.5] pair prints a fresh link; devices lists it; revoke drops it at once', async () => {
    const dataDir = tempDir();
    const host = await startCliHost(['--port', '0', '--data-dir', dataDir], { ASKAWAY_TOKEN: TOKEN });

    const pair = await cli(dataDir, 'pair', '--json');
    expect(pair.code).toBe(0);
    const minted = PairingCodeResponseSchema.parse(JSON.parse(pair.stdout));
    expect(minted.link).toBe(`${host.url}/pair#code=${minted.code}`);
    expect(minted.link).not.toBe(host.pair);
    const phone = await redeemPairingCode(host.url, minted.code, 'Anna’s phone');
    const laptop = await redeemPairingCode(
      host.url,
      new URLSearchParams(new URL(host.pair).hash.slice(1)).get('code') ?? '',
      'Work laptop',
    );
    const remote = await connectRemote(host.url, phone.credential);

    const listed = await cli(dataDir, 'devices');
    expect(listed.code).toBe(0);
    const rows = listed.stdout.trim().split('\n');
    expect(expectItem(rows, 0)).toMatch(/^ID\s+NAME\s+PLATFORM\s+PAIRED\s+LAST SEEN$/);
    expect(rows.find((row) => row.startsWith(phone.deviceId))).toMatch(/Anna’s phone\s+Test · Node\s+.+online now$/);
    expect(rows.find((row) => row.startsWith(laptop.deviceId))).toMatch(/Work laptop.+never$/);

    const revoked = await cli(dataDir, 'devices', 'revoke', 'anna’s PHONE');
    expect(revoked).toMatchObject({ code: 0, stderr: '' });
    expect(revoked.stdout).toContain(`Revoked Anna’s phone (${phone.deviceId})`);
    await vi.waitFor(() => expect(remote.socket.connected).toBe(false), SLOW);
    expect(remote.events.some((event) => event.type === 'device.revoked' && event.deviceId === phone.deviceId)).toBe(
      true,
    );
    expect(
      await tryConnect(host.url, REMOTE_NAMESPACE, {
        credential: phone.credential,
        protocolVersion: REMOTE_PROTOCOL_VERSION,
      }),
    ).toEqual({
      code: 'device-revoked',
      message: expect.stringMatching(/^This device was removed from .+ Pair again/),
    });

    const json = await cli(dataDir, 'devices', '--json');
    expect(JSON.parse(json.stdout)).toEqual({ devices: [expect.objectContaining({ id: laptop.deviceId })] });
    const unknown = await cli(dataDir, 'devices', 'revoke', 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No paired device "nobody"/);
    // Nothing the host printed holds a credential or the token (R16.6).
    for (const secret of [TOKEN, phone.credential, laptop.credential, minted.code])
      expect(host.stdout() + host.stderr()).not.toContain(secret);
  });

  it('[R16.8] the admin API takes the admin token only: not the agent token, not a device credential', async () => {
    const dataDir = tempDir();
    const host = await startCliHost(['--port', '0', '--data-dir', dataDir], { ASKAWAY_TOKEN: TOKEN });
    const device = await redeemPairingCode(
      host.url,
      new URLSearchParams(new URL(host.pair).hash.slice(1)).get('code') ?? '',
    );
    for (const [bearer, status, message] of [
      [TOKEN, 403, /The agent token cannot manage devices/],
      [device.credential, 403, /A device credential cannot manage devices/],
      ['wrong', 401, /Missing or wrong admin token/],
    ] as const) {
      const reply = await postJson(`${host.url}/api/admin/pairing-codes`, {}, { Authorization: `Bearer ${bearer}` });
      expect(reply.status).toBe(status);
      expect(reply.json).toMatchObject({ error: { message: expect.stringMatching(message) } });
    }
    const elsewhere = await cli(tempDir(), 'pair');
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(/No running Askaway host found/);
  });
});
