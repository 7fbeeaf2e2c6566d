import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { killAllCli, runCli, startCliHost } from '../lib/host/test-support/spawn-cli';
import { tempDir } from '../lib/host/test-support/test-host';
import { startInProcess } from './test-support/start-in-process';
import { startBanner, type BannerFacts } from './commands/start-banner';
import { pairingQr } from './commands/pairing-output';
import { loggedOutStatus, runningStatus, STAND_IN_DNS_NAME, tailscaleStandIn } from './test-support/tailscale-stand-in';

/*
 * `askaway start --tailscale` against a stand-in `tailscale` on PATH (bin/test-support/tailscale-stand-in.ts):
 * the real CLI cannot log in on these machines. The stand-in records its arguments and answers with the JSON
 * Tailscale documents, so what is checked here is what we ask of it and what we make of its answers.
 * Requirement ids: the closest existing ones (R16.2 the start banner's link, R12.11 a refused start, R17.1 invite)
 * until the first-run requirements get their own under R15.
 */

const TAILNET_URL = `https://${STAND_IN_DNS_NAME}`;
const SLOW = { timeout: 15_000, interval: 50 };
const originalPath = process.env.PATH;

afterEach(() => {
  process.env.PATH = originalPath;
  killAllCli();
});

/** A data dir that does not exist yet: a refused start must leave it so (R12.11). */
function freshDataDir(): string {
  return path.join(tempDir(), 'data');
}

function withStandInOnPath(status: unknown = runningStatus()) {
  const standIn = tailscaleStandIn(status);
  process.env.PATH = `${standIn.dir}${path.delimiter}${originalPath ?? ''}`;
  return standIn;
}

describe('askaway start --tailscale refuses what cannot reach a phone, and writes nothing (in-process)', () => {
  it('[R15.4][R12.11] without a tailscale command on PATH: exit 1, says how to get one, no data dir', async () => {
    process.env.PATH = tempDir('askaway-empty-path-');
    const dataDir = freshDataDir();
    const run = await startInProcess(['--tailscale', '--no-demo', '--no-codex', '--port', '0', '--data-dir', dataDir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--tailscale needs the `tailscale` command.*tailscale up/s);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('[R15.4][R12.11] logged out (BackendState NeedsLogin): exit 1, says `tailscale up`, asks only for the status', async () => {
    const standIn = withStandInOnPath(loggedOutStatus());
    const dataDir = freshDataDir();
    const run = await startInProcess(['--tailscale', '--no-demo', '--no-codex', '--port', '0', '--data-dir', dataDir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not connected.*"NeedsLogin".*tailscale up/);
    expect(standIn.calls()).toEqual(['status --json']);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('[R15.4][R12.11] HTTPS certificates off in the tailnet (CertDomains null): exit 1, says where to turn them on', async () => {
    const standIn = withStandInOnPath({ ...runningStatus(), CertDomains: null });
    const dataDir = freshDataDir();
    const run = await startInProcess(['--tailscale', '--no-demo', '--no-codex', '--port', '0', '--data-dir', dataDir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/does not issue HTTPS certificates for studio\.tail1234\.ts\.net.*HTTPS Certificates/);
    expect(standIn.calls()).toEqual(['status --json']);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('[R15.4][R12.11] a --public-url that is not the tailnet name: exit 1, nothing served, no data dir', async () => {
    const standIn = withStandInOnPath();
    const dataDir = freshDataDir();
    const run = await startInProcess([
      '--tailscale',
      '--public-url',
      'https://askaway.example.com',
      '--no-demo',
      '--no-codex',
      '--data-dir',
      dataDir,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`is not this machine's tailnet address (${TAILNET_URL})`);
    expect(standIn.calls().filter((call) => call.startsWith('serve'))).toEqual([]);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('[R15.4][R12.11] port 443 of the tailnet name already serves something else: refused, left as it was', async () => {
    const standIn = withStandInOnPath();
    const theirs = {
      TCP: { '443': { HTTPS: true } },
      Web: { [`${STAND_IN_DNS_NAME}:443`]: { Handlers: { '/': { Proxy: 'http://127.0.0.1:3000' } } } },
    };
    standIn.setServeConfig(theirs);
    const dataDir = freshDataDir();
    const run = await startInProcess([
      '--tailscale',
      '--no-demo',
      '--no-codex',
      '--port',
      '4417',
      '--data-dir',
      dataDir,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/already serves http:\/\/127\.0\.0\.1:3000.*tailscale serve --https=443 off/);
    expect(standIn.calls()).toEqual(['status --json', 'serve status --json']);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('[R15.4][R12.11] tailscaled not running (status --json fails): exit 1, says what tailscale said, no data dir', async () => {
    const standIn = withStandInOnPath();
    standIn.fail('status', "failed to connect to local tailscaled; it doesn't appear to be running");
    const dataDir = freshDataDir();
    const run = await startInProcess(['--tailscale', '--no-demo', '--no-codex', '--port', '0', '--data-dir', dataDir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/status --json` failed \(exit 1\): failed to connect to local tailscaled.*tailscale up/);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('[R15.4][R12.11] tailscale serve refused (no operator rights): exit 1 with the fix, the host closed again', async () => {
    const standIn = withStandInOnPath();
    standIn.fail('serve', 'Access denied: serve config denied');
    const run = await startInProcess([
      '--tailscale',
      '--no-demo',
      '--no-codex',
      '--port',
      '0',
      '--data-dir',
      freshDataDir(),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Access denied: serve config denied.*sudo tailscale set --operator=\$USER/);
    expect(run.stdout).not.toContain('Pair:');
    expect(standIn.calls().map((call) => call.split(' http')[0])).toEqual([
      'status --json',
      'serve status --json',
      'serve --bg --https=443',
    ]);
  });

  it('[R15.4][R12.11] --tailscale with --tls-cert is a usage error (tailscale serve brings the certificate)', async () => {
    const run = await startInProcess(['--tailscale', '--tls-cert', 'c.pem', '--tls-key', 'k.pem']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--tailscale brings its own certificate/);
  });
});

function facts(overrides: Partial<BannerFacts>): BannerFacts {
  return {
    version: '0.1.0',
    localUrl: 'http://127.0.0.1:4417',
    lanUrls: [],
    tailnet: false,
    pairLink: 'http://127.0.0.1:4417/pair#code=AAAAA-BBBBB-CCCCC-DDDDD',
    pairTerms: 'works once, until 10:10:00 (10 minutes)',
    dataDir: '/home/me/.askaway',
    machines: 'studio (this one)',
    bindHost: '127.0.0.1',
    port: 4417,
    webAppBuilt: true,
    staticDir: '/x/out',
    ...overrides,
  };
}

describe('the start banner shows a QR code only for a link a phone can open', () => {
  it('[R15.3] loopback only: no QR code; the link is for this browser; one command for each way to reach a phone', async () => {
    const text = await startBanner(facts({}));
    expect(text).not.toContain('Scan to pair');
    expect(text).not.toContain(await pairingQr(facts({}).pairLink));
    expect(text).toContain("http://127.0.0.1:4417/pair#code=AAAAA-BBBBB-CCCCC-DDDDD  (this computer's browser only)");
    expect(text).toContain('askaway start --tailscale');
    expect(text).toContain('cloudflared tunnel --url http://127.0.0.1:4417');
    expect(text).toMatch(
      /askaway start --host 0\.0\.0\.0\n\s+a trusted LAN only: plain http, so no notifications and no offline app/,
    );
  });

  it('[R15.3][R15.4] over the tailnet: the QR code is the https tailnet link', async () => {
    const link = `${TAILNET_URL}/pair#code=AAAAA-BBBBB-CCCCC-DDDDD`;
    const text = await startBanner(facts({ publicUrl: TAILNET_URL, tailnet: true, pairLink: link }));
    expect(text).toContain(`Public:   ${TAILNET_URL} (tailscale serve; only your tailnet reaches it)`);
    expect(text).toContain(`Scan to pair your phone:\n${await pairingQr(link)}`);
    expect(text).not.toContain('--tailscale');
  });

  it('[R15.3] a LAN address: the QR code, and what plain http costs the phone', async () => {
    const link = 'http://192.168.1.20:4417/pair#code=AAAAA-BBBBB-CCCCC-DDDDD';
    const text = await startBanner(
      facts({ bindHost: '0.0.0.0', lanUrls: ['http://192.168.1.20:4417'], pairLink: link }),
    );
    expect(text).toContain(`Scan to pair your phone:\n${await pairingQr(link)}`);
    expect(text).toContain('no notifications and no offline app');
  });
});

/** GET /healthz on the host's port with the Host header `tailscale serve` forwards. */
function healthzAs(url: string, hostHeader: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/healthz`, { headers: { host: hostHeader } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
}

describe('askaway start --tailscale (child process, stand-in tailscale on PATH)', () => {
  it('[R15.4][R15.5][R17.1] serves the port at the tailnet name, pairs and invites there, and undoes the serve on stop', async () => {
    const standIn = tailscaleStandIn();
    const env = { PATH: `${standIn.dir}${path.delimiter}${originalPath ?? ''}` };
    const dataDir = freshDataDir();
    const host = await startCliHost(['--tailscale', '--port', '0', '--data-dir', dataDir], env);
    const port = new URL(host.url).port;
    expect(standIn.calls()).toEqual([
      'status --json',
      'serve status --json',
      `serve --bg --https=443 http://127.0.0.1:${port}`,
    ]);
    const pair = new URL(host.pair);
    expect(`${pair.origin}${pair.pathname}`).toBe(`${TAILNET_URL}/pair`);
    expect(host.stdout()).toContain(`Public:   ${TAILNET_URL}`);
    expect(host.stdout()).toContain(`Scan to pair your phone:\n${await pairingQr(host.pair)}`);
    // What tailscale serve forwards carries the tailnet name as its Host (R12.4): answered, not 421.
    expect(await healthzAs(host.url, STAND_IN_DNS_NAME)).toBe(200);

    // A machine joining this hub is told the tailnet name; it needs nothing but to reach that name.
    const invite = runCli(['invite', '--data-dir', dataDir], env);
    expect(await invite.exited).toBe(0);
    expect(invite.stdout()).toMatch(new RegExp(`askaway join ${TAILNET_URL.replace(/\./g, '\\.')} [0-9A-Z-]{23}\\b`));

    host.child.kill('SIGTERM');
    expect(await host.exited).toBe(0);
    expect(standIn.calls().at(-1)).toBe('serve --https=443 off');
    expect(host.stdout()).toContain(`Tailscale: stopped serving ${TAILNET_URL}.`);
  });

  it('[R15.3][R16.2] plain askaway start (loopback only) and askaway pair print no QR code and say how to reach a phone', async () => {
    const dataDir = freshDataDir();
    const host = await startCliHost(['--port', '0', '--data-dir', dataDir]);
    await vi.waitFor(() => expect(host.stdout()).toContain('From a clone'), SLOW);
    expect(host.stdout()).not.toContain('Scan to pair');
    expect(host.stdout()).toContain("(this computer's browser only)");
    expect(host.stdout()).toContain('askaway start --tailscale');
    // `askaway pair` prints its fresh link the same way.
    const pair = runCli(['pair', '--data-dir', dataDir]);
    expect(await pair.exited).toBe(0);
    expect(pair.stdout()).toMatch(/Link: {2}http:\/\/127\.0\.0\.1:\d+\/pair#code=/);
    expect(pair.stdout()).not.toContain('Scan to pair');
    expect(pair.stdout()).toContain("No QR code: the link is this computer's own address");
  });
});
