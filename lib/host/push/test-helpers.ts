import { createECDH, createDecipheriv, createHmac, createPublicKey, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { type PushSubscriptionJson } from '../../contracts';

/** One request the recording server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A whole answer for one path: a redirect's Location, or an error page's body. */
export interface CannedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A local stand-in for a push service (or an ntfy server): records every request and
 * answers with the status set for its path (201 by default), or the whole answer set in `answerFor`.
 */
export async function startRecordingServer(): Promise<{
  url: string;
  requests: RecordedRequest[];
  statusFor: Map<string, number>;
  answerFor: Map<string, CannedAnswer>;
  close(): Promise<void>;
}> {
  const requests: RecordedRequest[] = [];
  const statusFor = new Map<string, number>();
  const answerFor = new Map<string, CannedAnswer>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks) });
      const answer = answerFor.get(path);
      res.writeHead(answer?.status ?? statusFor.get(path) ?? 201, answer?.headers);
      res.end(answer?.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    statusFor,
    answerFor,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Where tests point a device's ntfy topic: https on a public-looking name, delivered by `routeToSink`. */
export const NTFY_TEST_ORIGIN = 'https://ntfy.askaway.test';

/**
 * The host's `fetch` seam for tests: a request to a `*.test` name goes to the local recording `sinkUrl`
 * instead (same path), everything else as it was. A device's topic must be https on a public address,
 * so this is how one reaches a sink on loopback.
 */
export function routeToSink(sinkUrl: string): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (!url.hostname.endsWith('.test')) return fetch(input, init);
    return fetch(`${sinkUrl}${url.pathname}${url.search}`, init);
  };
}

/** What a browser keeps private for one subscription: its ECDH key and auth secret. */
export interface BrowserKeys {
  subscription: PushSubscriptionJson;
  privateKey: Buffer;
  publicKey: Buffer;
  auth: Buffer;
}

/** A subscription as `pushManager.subscribe()` would make it, pointing at a local endpoint. */
export function makeSubscription(endpoint: string): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const publicKey = ecdh.getPublicKey();
  return {
    subscription: { endpoint, keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') } },
    privateKey: ecdh.getPrivateKey(),
    publicKey,
    auth,
  };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** Decrypts an `aes128gcm` Web Push body (RFC 8188 framing, RFC 8291 key derivation) as the browser would. */
export function decryptWebPush(body: Buffer, keys: BrowserKeys): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const senderPublicKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error('expected a single record');

  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(keys.privateKey);
  const sharedSecret = ecdh.computeSecret(senderPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.publicKey, senderPublicKey]);
  const ikm = hmac(hmac(keys.auth, sharedSecret), Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);

  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('missing last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** Checks the VAPID Authorization header (RFC 8292): signed with the host's key, for this push service. */
export function verifyVapid(
  authorization: string | undefined,
  vapidPublicKey: string,
  endpoint: string,
): { sub: string; exp: number } {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(authorization ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`not a VAPID header: ${authorization}`);
  const [jwt, key] = [match[1], match[2]];
  if (key !== vapidPublicKey) throw new Error('signed with another key');
  const [header, claims, signature] = jwt.split('.');
  if (!header || !claims || !signature) throw new Error('malformed JWT');
  const raw = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) throw new Error('bad VAPID signature');
  const parsed = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as {
    aud: string;
    sub: string;
    exp: number;
  };
  if (parsed.aud !== new URL(endpoint).origin)
    throw new Error(`audience ${parsed.aud} is not ${new URL(endpoint).origin}`);
  return { sub: parsed.sub, exp: parsed.exp };
}
