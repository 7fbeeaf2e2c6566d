import fs from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAllHosts, startTestHost, tempDir } from '../test-support/test-host';
import { acceptedEncodings } from './precompressed';

afterEach(closeAllHosts);

const SCRIPT = `console.log(${JSON.stringify('inbox '.repeat(400))});\n`;
const PAGE = `<!doctype html><h1>inbox</h1>${'<p>row</p>'.repeat(200)}`;

/** A static export with precompressed siblings, as `npm run build` leaves it. */
function buildSite(): string {
  const root = path.join(tempDir('askaway-precompressed-'), 'out');
  const write = (file: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  };
  write('index.html', PAGE);
  write('index.html.br', brotliCompressSync(PAGE));
  write('index.html.gz', gzipSync(PAGE));
  write('404.html', '<h1>lost</h1>');
  write('_next/static/chunks/app.js', SCRIPT);
  write('_next/static/chunks/app.js.br', brotliCompressSync(SCRIPT));
  write('_next/static/chunks/app.js.gz', gzipSync(SCRIPT));
  write('_next/static/chunks/only-gzip.js', SCRIPT);
  write('_next/static/chunks/only-gzip.js.gz', gzipSync(SCRIPT));
  write('icon.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  return root;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http, because fetch() decodes bodies and hides Content-Length and Content-Encoding. */
function raw(url: string, headers: Record<string, string>, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(response: RawResponse): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(response.body).toString('utf8');
  return response.body.toString('utf8');
}

describe('[R10.1] precompressed static files', () => {
  it('[R10.1] sends br, then gzip, then identity as Accept-Encoding allows, each decoding to the original', async () => {
    const host = await startTestHost({ staticDir: buildSite() });
    const cases: [string, string, string | undefined][] = [
      ['/_next/static/chunks/app.js', 'gzip, deflate, br, zstd', 'br'],
      ['/_next/static/chunks/app.js', 'gzip, deflate', 'gzip'],
      ['/_next/static/chunks/app.js', 'br;q=0, gzip;q=0.5', 'gzip'],
      ['/_next/static/chunks/app.js', '*', 'br'],
      ['/_next/static/chunks/app.js', 'identity', undefined],
      ['/_next/static/chunks/app.js', '', undefined],
      ['/_next/static/chunks/only-gzip.js', 'br, gzip', 'gzip'],
      ['/', 'br', 'br'],
    ];
    for (const [target, accept, expected] of cases) {
      const response = await raw(`${host.url}${target}`, accept ? { 'Accept-Encoding': accept } : {});
      expect(response.status, `${target} with "${accept}"`).toBe(200);
      expect(response.headers['content-encoding'], `${target} with "${accept}"`).toBe(expected);
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(Number(response.headers['content-length'])).toBe(response.body.length);
      expect(decode(response)).toBe(target === '/' ? PAGE : SCRIPT);
    }
    const encoded = await raw(`${host.url}/_next/static/chunks/app.js`, { 'Accept-Encoding': 'br' });
    expect(encoded.body.length).toBeLessThan(SCRIPT.length / 5);
    expect(encoded.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('[R10.1] answers HEAD and Range with the headers of the full chosen representation', async () => {
    const host = await startTestHost({ staticDir: buildSite() });
    const url = `${host.url}/_next/static/chunks/app.js`;
    const get = await raw(url, { 'Accept-Encoding': 'gzip' });
    const head = await raw(url, { 'Accept-Encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    const ranged = await raw(url, { 'Accept-Encoding': 'br', Range: 'bytes=0-9' });
    expect(ranged.status).toBe(200);
    expect(decode(ranged)).toBe(SCRIPT);
  });

  it('[R10.1] gives each encoding its own ETag and revalidates it', async () => {
    const host = await startTestHost({ staticDir: buildSite() });
    const url = `${host.url}/_next/static/chunks/app.js`;
    const br = await raw(url, { 'Accept-Encoding': 'br' });
    const plain = await raw(url, {});
    const etag = String(br.headers.etag);
    expect(etag).not.toBe(plain.headers.etag);
    expect((await raw(url, { 'Accept-Encoding': 'br', 'If-None-Match': etag })).status).toBe(304);
    expect((await raw(url, { 'If-None-Match': etag })).status).toBe(200);
  });

  it('[R10.1] never serves a sibling under its own name, nor a stale one', async () => {
    const root = buildSite();
    const host = await startTestHost({ staticDir: root });
    for (const target of [
      '/_next/static/chunks/app.js.br',
      '/_next/static/chunks/app.js.gz',
      '/index.html.gz',
      '/INDEX.HTML.BR',
    ]) {
      const response = await raw(`${host.url}${target}`, { 'Accept-Encoding': 'br, gzip' });
      expect(response.status, target).toBe(404);
      expect(decode(response)).toBe('<h1>lost</h1>');
    }
    // A rebuilt file with an older sibling next to it: the sibling no longer matches.
    const file = path.join(root, '_next/static/chunks/app.js');
    fs.writeFileSync(file, 'console.log("rebuilt")');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 60_000));
    const fresh = await raw(`${host.url}/_next/static/chunks/app.js`, { 'Accept-Encoding': 'br, gzip' });
    expect(fresh.headers['content-encoding']).toBeUndefined();
    expect(decode(fresh)).toBe('console.log("rebuilt")');
  });

  it('[R10.1] leaves binary files alone', async () => {
    const host = await startTestHost({ staticDir: buildSite() });
    const icon = await raw(`${host.url}/icon.png`, { 'Accept-Encoding': 'br, gzip' });
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers.vary).toBeUndefined();
    expect(icon.body).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });

  it('[R10.1] reads Accept-Encoding weights', () => {
    expect([...acceptedEncodings('gzip, deflate, br')]).toEqual(['br', 'gzip']);
    expect([...acceptedEncodings('br;q=0, gzip')]).toEqual(['gzip']);
    expect([...acceptedEncodings('*;q=0.1, gzip;q=0')]).toEqual(['br']);
    expect([...acceptedEncodings('x-gzip')]).toEqual(['gzip']);
    expect([...acceptedEncodings(undefined)]).toEqual([]);
    expect([...acceptedEncodings('identity;q=1, BR;Q=1')]).toEqual(['br']);
  });
});
