import http from 'node:http';
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, REMOTE_NAMESPACE, REMOTE_PROTOCOL_VERSION, RUNTIME_NAMESPACE } from '../contracts';
import { AllowedHosts } from './http/allowed-hosts';
import { closeAllClients } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

/** A request with the Host header a DNS-rebinding page's browser would send. */
function request(
  url: string,
  path: string,
  host: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const target = new URL(path, url);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      target,
      {
        method: options.method ?? 'GET',
        headers: {
          Host: host,
          ...(payload !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('[R12.4] the host answers only for its own names', () => {
  it('[R12.4] a rebinding name gets 421 before any handler: no pairing code spent, no page, no socket handshake', async () => {
    const host = await startTestHost();
    const evil = `evil.example:${host.port}`;
    const { code } = await host.mintPairingCode();
    const pair = await request(host.url, '/api/pair', evil, {
      method: 'POST',
      body: { code, name: 'Rebound', platform: 'Web' },
      headers: { Origin: `http://${evil}` },
    });
    expect(pair.status).toBe(421);
    expect(pair.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(pair.body)).toMatchObject({
      error: { code: 'misdirected', message: expect.stringMatching(/--allowed-host/) },
    });
    expect(await host.codes.count('pair-device')).toBe(1);
    expect(host.devices.list()).toEqual([]);
    expect((await request(host.url, '/', evil)).status).toBe(421);
    expect((await request(host.url, '/healthz', evil)).status).toBe(421);
    expect((await request(host.url, '/socket.io/?EIO=4&transport=polling', evil)).status).toBe(421);

    // A WebSocket with a credential is refused at the upgrade, on either namespace.
    const device = await pairDevice(host);
    for (const [namespace, auth] of [
      [RUNTIME_NAMESPACE, { token: TEST_TOKEN, protocolVersion: PROTOCOL_VERSION, runtimeId: 'r' }],
      [REMOTE_NAMESPACE, { credential: device.credential, protocolVersion: REMOTE_PROTOCOL_VERSION }],
    ] as const) {
      const outcome = await new Promise<string>((resolve) => {
        const socket = io(`${host.url}${namespace}`, {
          auth,
          transports: ['websocket'],
          extraHeaders: { Host: evil },
          forceNew: true,
          reconnection: false,
        });
        socket.once('connect', () => {
          socket.disconnect();
          resolve('connected');
        });
        socket.once('connect_error', (error) => resolve(error.message));
      });
      expect(outcome).not.toBe('connected');
    }
  });

  it('[R12.4] loopback names, its own address, the public URL host and --allowed-host names pass', async () => {
    const host = await startTestHost({ publicUrl: 'https://hub.tail1234.ts.net', allowedHosts: ['studio.lan'] });
    for (const name of [
      `127.0.0.1:${host.port}`,
      `localhost:${host.port}`,
      `app.localhost:${host.port}`,
      'hub.tail1234.ts.net',
      'HUB.tail1234.ts.net.',
      `studio.lan:${host.port}`,
    ]) {
      expect((await request(host.url, '/healthz', name)).status, name).toBe(200);
    }
    expect((await request(host.url, '/healthz', 'tail1234.ts.net')).status).toBe(421);
  });

  it('[R12.4] a wildcard bind answers for the addresses of this machine, and only those', () => {
    const allowed = new AllowedHosts({ bindHost: '0.0.0.0', interfaceAddresses: () => ['192.168.1.5', 'fe80::1'] });
    expect(allowed.allows('192.168.1.5:4417')).toBe(true);
    expect(allowed.allows('[fe80::1]:4417')).toBe(true);
    expect(allowed.allows('[::1]:4417')).toBe(true);
    expect(allowed.allows('192.168.1.6:4417')).toBe(false);
    expect(allowed.allows('rebind.evil.example')).toBe(false);
    const specific = new AllowedHosts({ bindHost: '192.168.1.5' });
    expect(specific.allows('192.168.1.5')).toBe(true);
    expect(specific.allows('10.0.0.1')).toBe(false);
  });
});
