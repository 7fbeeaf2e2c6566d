import http from 'node:http';
import https from 'node:https';

export interface JsonReply {
  status: number;
  /** The parsed body; undefined when it was not JSON. */
  json: unknown;
}

/** A reply longer than this is not read on: every answer these calls expect is a few hundred bytes. */
export const REPLY_MAX_BYTES = 1024 * 1024;

/**
 * One JSON request with node:http(s), for the CLI and the hooks. TLS is verified as Node does (so NODE_EXTRA_CA_CERTS works)
 * unless `insecureLoopback` is set and the host is this machine. Credentials go in the
 * Authorization header and codes in the body, never in the URL (R17.7).
 */
export function requestJson(
  url: URL,
  options: { method: 'GET' | 'POST'; token?: string; body?: unknown; insecureLoopback?: boolean; timeoutMs?: number },
): Promise<JsonReply> {
  const payload = options.body === undefined ? '' : JSON.stringify(options.body);
  const loopback = ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(url.hostname);
  const client = url.protocol === 'https:' ? https : http;
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: options.method,
        headers: {
          Accept: 'application/json',
          'Content-Length': String(Buffer.byteLength(payload)),
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
          ...(options.token !== undefined ? { Authorization: `Bearer ${options.token}` } : {}),
        },
        timeout: timeoutMs,
        ...(url.protocol === 'https:' && loopback && options.insecureLoopback ? { rejectUnauthorized: false } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > REPLY_MAX_BYTES) {
            req.destroy(new Error(`the answer was longer than ${REPLY_MAX_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)));
    req.on('error', reject);
    req.end(payload);
  });
}
