import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, REMOTE_PROTOCOL_VERSION } from '../../contracts';
import { closeAllHosts, startTestHost, tempDir } from '../test-support/test-host';

afterEach(closeAllHosts);

const CSP = "default-src 'self'; script-src 'self' 'sha256-abc'; frame-ancestors 'none'";

function buildSite(): { root: string; outside: string } {
  const base = tempDir('askaway-site-');
  const root = path.join(base, 'out');
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write('index.html', '<h1>inbox</h1>');
  write('history.html', '<h1>history</h1>');
  write('404.html', '<h1>lost</h1>');
  write('sw.js', 'self.addEventListener("fetch", () => {});');
  write('manifest.webmanifest', '{}');
  write('_next/static/chunks/app-123.js', 'console.log(1)');
  write('_askaway/csp-header.txt', `${CSP}\n`);
  const outside = path.join(base, 'secret.txt');
  fs.writeFileSync(outside, 'top secret');
  fs.symlinkSync(outside, path.join(root, 'escape.txt'));
  return { root, outside };
}

describe('[R10.1] static PWA serving', () => {
  it('[R10.1] serves clean URLs with the right types and caching', async () => {
    const { root } = buildSite();
    const host = await startTestHost({ staticDir: root });
    const index = await fetch(`${host.url}/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toBe('<h1>inbox</h1>');
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(await (await fetch(`${host.url}/history`)).text()).toBe('<h1>history</h1>');
    expect(await (await fetch(`${host.url}/history/`)).text()).toBe('<h1>history</h1>');

    const chunk = await fetch(`${host.url}/_next/static/chunks/app-123.js`);
    expect(chunk.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const sw = await fetch(`${host.url}/sw.js`);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${host.url}/manifest.webmanifest`)).headers.get('content-type')).toMatch(
      /^application\/manifest\+json/,
    );

    const etag = index.headers.get('etag') ?? '';
    expect((await fetch(`${host.url}/`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const missing = await fetch(`${host.url}/no/such/page`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('<h1>lost</h1>');
  });

  it('[R12.2] sends the build CSP and the security headers', async () => {
    const { root } = buildSite();
    const host = await startTestHost({ staticDir: root });
    const response = await fetch(`${host.url}/`);
    expect(response.headers.get('content-security-policy')).toBe(CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect((await fetch(`${host.url}/_askaway/csp-header.txt`)).status).toBe(404);
  });

  it('[R12.2] picks up the policy of a rebuild without a restart', async () => {
    const { root } = buildSite();
    const host = await startTestHost({ staticDir: root });
    expect((await fetch(`${host.url}/`)).headers.get('content-security-policy')).toBe(CSP);
    const rebuilt = CSP.replace('sha256-abc', 'sha256-def');
    const file = path.join(root, '_askaway', 'csp-header.txt');
    fs.writeFileSync(file, rebuilt);
    // A different mtime marks the rebuild even on coarse-grained file systems.
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    await expect
      .poll(async () => (await fetch(`${host.url}/`)).headers.get('content-security-policy'), { timeout: 5_000 })
      .toBe(rebuilt);
  });

  it('[R12.1] makes path traversal and symlink escapes impossible', async () => {
    const { root } = buildSite();
    const host = await startTestHost({ staticDir: root });
    const { request } = await import('node:http');
    // fetch() normalizes `..` away, so send raw request lines.
    const raw = (target: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${host.url}${target}`, { method: 'GET', path: target }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const target of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%2fsecret.txt',
      '/escape.txt',
      '/a%00b',
      '/%5c..%5csecret.txt',
      '/%E0%A4%A',
    ]) {
      const { status, body } = await raw(target);
      expect(body).not.toContain('top secret');
      expect([400, 404]).toContain(status);
    }
  });

  it('[R10.1] explains a missing PWA build instead of failing, and /healthz reports the version', async () => {
    const host = await startTestHost({ staticDir: path.join(tempDir(), 'no-build') });
    const page = await fetch(`${host.url}/pair`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/not built yet/);
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    const health = await fetch(`${host.url}/healthz`);
    expect(await health.json()).toEqual({
      status: 'ok',
      version: expect.any(String),
      protocolVersion: PROTOCOL_VERSION,
      remoteProtocolVersion: REMOTE_PROTOCOL_VERSION,
    });
  });

  it('[R11.1] mounted routes take precedence and get token helpers', async () => {
    const host = await startTestHost();
    host.registerHttpRoute('POST', '/hooks', (_req, res) => res.end('hooks'));
    host.registerHttpRoute('POST', '/hooks/claude-code', async (_req, res, context) => {
      res.end((await context.authenticateAgent(context.bearerToken())).ok ? 'authorized' : 'refused');
    });
    const post = (target: string, token?: string) =>
      fetch(`${host.url}${target}`, {
        method: 'POST',
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      }).then((r) => r.text());
    expect(await post('/hooks/claude-code', host.token)).toBe('authorized');
    expect(await post('/hooks/claude-code', 'nope')).toBe('refused');
    expect(await post('/hooks/other')).toBe('hooks');
    // Other methods are not routed: the PWA (here its not-built page) answers.
    expect(await (await fetch(`${host.url}/hooks/claude-code`)).text()).toMatch(/not built yet/);
  });
});
