import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Socket } from 'socket.io-client';
import { closeAllClients, connectRemote, connectRuntime, type RemoteClient } from '../lib/host/test-support/clients';
import { pairOverHttp } from '../lib/host/test-support/devices';
import { questionRequest } from '../lib/host/test-support/fixtures';
import { cliIn as cli, killAllCli, runCli, startCliHost } from '../lib/host/test-support/spawn-cli';
import { setUpPgTestLogs } from '../lib/host/store/test-support/pg-test-logs';
import { tempDir } from '../lib/host/test-support/test-host';
import { startRecordingServer } from '../lib/host/push/test-helpers';

const TOKEN = 'ntfy-cli-token';
const logs = setUpPgTestLogs();
const SLOW = { timeout: 15_000, interval: 50 };
const servers: { close(): Promise<void> }[] = [];

afterEach(async () => {
  closeAllClients();
  killAllCli();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** `push:ntfy` from a device's connection, as Settings sends it. */
function setTopic(socket: RemoteClient, topicUrl: string | null): Promise<unknown> {
  return (socket as unknown as Socket).emitWithAck('push:ntfy', { topicUrl });
}

describe('askaway ntfy (real CLI processes against a real host)', () => {
  it('[R12.15] the owner sets a topic on this machine or the LAN on the host, and the running host posts to it', async () => {
    const dataDir = tempDir();
    const host = await startCliHost(['--port', '0', '--data-dir', dataDir], { ASKAWAY_TOKEN: TOKEN });
    const sink = await startRecordingServer();
    servers.push(sink);

    const set = await cli(dataDir, 'ntfy', 'set', `${sink.url}/lan-topic`);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toContain(`${sink.url}/lan-topic`);

    // A device cannot clear or replace it: its own topic is another one.
    const phone = await pairOverHttp(host.url, dataDir, 'phone');
    const remote = await connectRemote(host.url, phone.credential);
    expect(await setTopic(remote.socket, null)).toMatchObject({ ok: true });
    expect(await setTopic(remote.socket, `${sink.url}/from-phone`)).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('askaway ntfy set') },
    });

    const runtime = await connectRuntime(host.url, TOKEN);
    const request = questionRequest();
    expect(await runtime.socket.emitWithAck('announce', request)).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(sink.requests.map((entry) => entry.path)).toEqual(['/lan-topic']), SLOW);
    expect(sink.requests[0]?.headers.title).toBe('Database');

    const listed = await cli(dataDir, 'ntfy', '--json');
    expect(JSON.parse(listed.stdout)).toEqual({
      topics: [{ setBy: 'host', url: `${sink.url}/lan-topic`, updatedAt: expect.any(String) }],
    });
    expect(await cli(dataDir, 'ntfy', 'clear')).toMatchObject({ code: 0 });
    expect((await cli(dataDir, 'ntfy')).stdout).toContain('No ntfy topics');
  });

  it('[R12.15] refuses what no host can post to, with a clear message, and changes nothing', async () => {
    const dataDir = tempDir();
    await startCliHost(['--port', '0', '--data-dir', dataDir], { ASKAWAY_TOKEN: TOKEN });
    for (const url of ['ftp://ntfy.sh/t', 'https://user:pw@ntfy.sh/t', 'not a url']) {
      const refused = await cli(dataDir, 'ntfy', 'set', url);
      expect(refused.code, url).toBe(1);
      expect(refused.stderr, url).toMatch(/^askaway ntfy: /);
    }
    expect(await cli(dataDir, 'ntfy', 'set')).toMatchObject({ code: 2 });
    expect((await cli(dataDir, 'ntfy')).stdout).toContain('No ntfy topics');
  });
});

describe('askaway ntfy on a team hub', () => {
  it('[R20.60] --database sets the owner’s topic in the team database, where every replica reads it', async () => {
    const url = await logs.freshLogUrl();
    const set = runCli(['ntfy', 'set', 'http://192.168.1.20:8080/team', '--database', url]);
    expect(await set.exited).toBe(0);
    expect(set.stderr()).toBe('');
    const store = await logs.open(url);
    expect(await store.pushStore.ntfyTopic({ kind: 'host' })).toBe('http://192.168.1.20:8080/team');

    const listed = runCli(['ntfy', '--json'], { ASKAWAY_DATABASE_URL: url });
    expect(await listed.exited).toBe(0);
    expect(JSON.parse(listed.stdout())).toEqual({
      topics: [{ setBy: 'host', url: 'http://192.168.1.20:8080/team', updatedAt: expect.any(String) }],
    });
    const refused = runCli(['ntfy', '--database', 'postgres://nobody@127.0.0.1:1/none']);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toMatch(/^askaway ntfy: /);
  });
});
