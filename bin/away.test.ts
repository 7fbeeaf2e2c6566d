import { afterEach, describe, expect, it, vi } from 'vitest';
import { AWAY_API_PATH } from '../lib/contracts';
import { closeAllClients, connectRemote } from '../lib/host/test-support/clients';
import { postJson, redeemPairingCode } from '../lib/host/test-support/devices';
import { cliIn as cli, killAllCli, startCliHost } from '../lib/host/test-support/spawn-cli';
import { tempDir } from '../lib/host/test-support/test-host';

const TOKEN = 'away-cli-token';
const SLOW = { timeout: 15_000, interval: 50 };

afterEach(() => {
  closeAllClients();
  killAllCli();
});

/** What a Claude Code hook asks with `credential`: the status and `{away}`. */
async function askAway(url: string, credential?: string, method = 'GET') {
  const reply = await fetch(`${url}${AWAY_API_PATH}`, {
    method,
    headers: credential ? { Authorization: `Bearer ${credential}` } : {},
  });
  return { status: reply.status, body: (await reply.json()) as unknown };
}

describe('askaway away (a real CLI process against a real host)', () => {
  it('[R19.50] says and switches whether you are away; every phone sees it at once; agents read it with their credential only', async () => {
    const dataDir = tempDir();
    const host = await startCliHost(['--port', '0', '--data-dir', dataDir], { ASKAWAY_TOKEN: TOKEN });
    const phone = await redeemPairingCode(
      host.url,
      new URLSearchParams(new URL(host.pair).hash.slice(1)).get('code') ?? '',
      'Phone',
    );
    const remote = await connectRemote(host.url, phone.credential);

    expect(await cli(dataDir, 'away')).toMatchObject({ code: 0, stdout: expect.stringContaining('At your desk') });
    expect(await askAway(host.url, TOKEN)).toEqual({ status: 200, body: { away: false } });

    const on = await cli(dataDir, 'away', 'on');
    expect(on).toMatchObject({ code: 0, stderr: '' });
    expect(on.stdout).toContain('Away: Claude Code waits for your reply');
    expect(await askAway(host.url, TOKEN)).toEqual({ status: 200, body: { away: true } });
    await vi.waitFor(
      () =>
        expect(remote.events.some((event) => event.type === 'preferences.updated' && event.preferences.away)).toBe(
          true,
        ),
      SLOW,
    );
    // Switching it again changes nothing and says so.
    expect((await cli(dataDir, 'away', 'on')).stdout).toContain('Away:');

    // Only an agent's credential reads it: no token, a wrong one, a phone's credential are refused; no writes there.
    expect((await askAway(host.url)).status).toBe(401);
    expect((await askAway(host.url, 'not-the-token')).status).toBe(401);
    expect([401, 403]).toContain((await askAway(host.url, phone.credential)).status);
    expect((await askAway(host.url, TOKEN, 'POST')).status).toBe(405);
    // Nor can the agent token switch it through the admin API.
    const refused = await postJson(`${host.url}/api/admin/away/off`, {}, { Authorization: `Bearer ${TOKEN}` });
    expect([401, 403]).toContain(refused.status);
    expect(await askAway(host.url, TOKEN)).toEqual({ status: 200, body: { away: true } });

    expect((await cli(dataDir, 'away', 'off')).stdout).toContain('At your desk');
    expect(await askAway(host.url, TOKEN)).toEqual({ status: 200, body: { away: false } });

    const wrong = await cli(dataDir, 'away', 'maybe');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('expected "on" or "off"');
  });
});
