import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AnnounceAck, type ResolvedNotice } from '../lib/contracts';
import { closeAllClients, connectRemote, connectRuntime } from '../lib/host/test-support/clients';
import { pairOverHttp, redeemPairingCode } from '../lib/host/test-support/devices';
import { questionRequest } from '../lib/host/test-support/fixtures';
import { killAllCli, runCli, startCliHost } from '../lib/host/test-support/spawn-cli';
import { tempDir } from '../lib/host/test-support/test-host';
import { startInProcess } from './test-support/start-in-process';
import { expectItem } from '../lib/core/test-support/expect-item';

const TOKEN = 'cli-test-token';
const SLOW = { timeout: 15_000, interval: 50 };

afterEach(() => {
  closeAllClients();
  killAllCli();
});

/**
 * A runtime like the real one: re-announces under one requestId until it has a resolution (R8.1, R8.3),
 * every 250 ms instead of every second so the test need not wait for it.
 */
async function reannouncingRuntime(url: string) {
  const runtime = await connectRuntime(url, TOKEN, 'test-runtime', {
    reconnect: { reconnectionDelay: 100, reconnectionDelayMax: 300 },
  });
  const request = questionRequest();
  const acks: AnnounceAck[] = [];
  const received: ResolvedNotice['resolution'][] = [];
  let attempt = 0;
  // The same resolution can come twice, as the ack of an announce that crossed it and as the push: the
  // runtime's broker takes it once, and so does this one. Two different resolutions would both be kept.
  const receive = (resolution: ResolvedNotice['resolution']) => {
    if (!received.some((seen) => JSON.stringify(seen) === JSON.stringify(resolution))) received.push(resolution);
  };
  const announce = () => {
    if (received.length > 0 || !runtime.socket.connected) return;
    attempt += 1;
    runtime.socket
      .timeout(2_000)
      .emit(
        'announce',
        { ...request, protocolRequestId: `proto-${attempt}` },
        (error: Error | null, ack: AnnounceAck) => {
          if (error) return;
          acks.push(ack);
          if (ack.ok && ack.status === 'resolved') receive(ack.resolution);
        },
      );
  };
  runtime.socket.on('resolved', (notice) => {
    receive(notice.resolution);
    runtime.socket.emit('resolution:ack', { requestId: notice.requestId }, () => undefined);
  });
  const timer = setInterval(announce, 250);
  announce();
  return { ...runtime, request, acks, received, stop: () => clearInterval(timer) };
}

describe('askaway start (child process)', () => {
  it('[R8.1][R10.2][R10.3] survives SIGKILL with a question pending: one pending item, one answer, one resolution', async () => {
    const dataDir = tempDir();
    const first = await startCliHost(['--port', '0', '--data-dir', dataDir], { ASKAWAY_TOKEN: TOKEN });
    const port = new URL(first.url).port;
    const runtime = await reannouncingRuntime(first.url);
    await vi.waitFor(() => expect(runtime.acks.some((ack) => ack.ok && ack.status === 'pending')).toBe(true), SLOW);

    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const acksBeforeRestart = runtime.acks.length;

    const second = await startCliHost(['--port', port, '--data-dir', dataDir], { ASKAWAY_TOKEN: TOKEN });
    const remote = await connectRemote(second.url, (await pairOverHttp(second.url, dataDir)).credential);
    expect(expectItem(remote.snapshots, 0).pending.map((view) => view.requestId)).toEqual([runtime.request.requestId]);
    // The runtime reconnects by itself and re-announces with a fresh protocolRequestId.
    await vi.waitFor(() => expect(runtime.acks.length).toBeGreaterThan(acksBeforeRestart + 1), SLOW);
    const answer = await remote.socket.emitWithAck('respond', {
      requestId: runtime.request.requestId,
      clientResponseId: 'phone-1',
      response: { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } },
    });
    expect(answer).toMatchObject({ ok: true, status: 'accepted' });
    await vi.waitFor(
      () => expect(remote.events.some((event) => event.type === 'interaction.delivered')).toBe(true),
      SLOW,
    );
    runtime.stop();
    expect(runtime.received).toHaveLength(1);
    expect(expectItem(runtime.received, 0).response).toEqual({
      action: 'accept',
      content: { answers: { 'Which database?': 'SQLite' } },
    });
    expect(remote.events.filter((event) => event.type === 'interaction.requested')).toEqual([]);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'host.json'))).toBe(false);
  });

  it('[R12.1] serves HTTPS with --tls-cert/--tls-key and puts --public-url in the pairing link', async () => {
    const dir = tempDir('askaway-tls-');
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-subj',
        '/CN=localhost',
        '-days',
        '1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      {
        stdio: 'ignore',
      },
    );
    const host = await startCliHost(
      [
        '--port',
        '0',
        '--data-dir',
        path.join(dir, 'data'),
        '--tls-cert',
        cert,
        '--tls-key',
        key,
        '--public-url',
        'https://askaway.example.ts.net/',
      ],
      { ASKAWAY_TOKEN: TOKEN },
    );
    expect(host.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const pair = new URL(host.pair);
    expect(`${pair.origin}${pair.pathname}`).toBe('https://askaway.example.ts.net/pair');
    const code = new URLSearchParams(pair.hash.slice(1)).get('code') ?? '';
    expect(code).toMatch(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);
    // The link points at the public address; this machine redeems its code over the local one.
    const remote = await connectRemote(host.url, (await redeemPairingCode(host.url, code)).credential);
    expect(expectItem(remote.snapshots, 0).pending).toEqual([]);
    const runtime = await connectRuntime(host.url, TOKEN);
    expect(await runtime.socket.emitWithAck('announce', questionRequest())).toMatchObject({
      ok: true,
      status: 'pending',
    });
    // The banner carries a one-time code, never the agent token (R16.6).
    expect(host.stdout()).not.toContain(TOKEN);
  });

  it('[R10.1] refuses a bad flag with exit code 2 and a clear message', async () => {
    const badPort = runCli(['start', '--port', 'abc']);
    expect(await badPort.exited).toBe(2);
    expect(badPort.stderr()).toMatch(/--port must be a number/);
  });

  it('[R10.2] a corrupt event log stops start with a clear error and is left untouched', async () => {
    const dataDir = tempDir();
    const db = path.join(dataDir, 'askaway.db');
    fs.writeFileSync(db, 'garbage '.repeat(1_000));
    const cli = runCli(['start', '--no-demo', '--port', '0', '--data-dir', dataDir]);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toMatch(/not a readable SQLite database/);
    expect(fs.readFileSync(db, 'utf8')).toBe('garbage '.repeat(1_000));
  });
});

describe('askaway start flags (in-process)', () => {
  it('[R10.1] refuses bad flags with exit code 2 and a clear message; --help prints the options', async () => {
    const unknown = await startInProcess(['--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/bogus/);
    const halfTls = await startInProcess(['--tls-cert', 'x.pem']);
    expect(halfTls.code).toBe(2);
    expect(halfTls.stderr).toMatch(/--tls-cert and --tls-key go together/);
    const help = await startInProcess(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--data-dir/);
  });
});
