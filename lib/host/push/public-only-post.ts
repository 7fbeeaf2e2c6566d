import { promises as dns } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { type LookupFunction } from 'node:net';
import { classifyAddress, deviceTopicRefusal } from './topic-address';

export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const resolveWithDns: ResolveHost = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** One POST: what ntfy publishing and Web Push need, whoever carries it. */
export interface PostInit {
  method: 'POST';
  headers: Record<string, string>;
  body: string | Uint8Array;
  signal: AbortSignal;
}

/** The status, and the start of the body (it only ever goes into the owner's log). */
export type PostAnswer = { status: number; text(): Promise<string> };

export type Post = (url: string, init: PostInit) => Promise<PostAnswer>;

/** Only the start of a server's answer is kept: it only ever goes into one log line. */
const ANSWER_KEPT = 4_096;

/**
 * POSTs to a URL a device named (R12.15, R12.20): `refusal` is checked on the URL as written, then the name is
 * resolved here and the connection goes to the addresses just checked, so a public name that resolves to this
 * machine or the LAN at send time (a rebinding DNS answer) is refused before any byte leaves. No redirect is
 * followed: a 30x is an answer like any other.
 */
export function publicOnlyPost(
  resolve: ResolveHost = resolveWithDns,
  refusal: (url: string) => string | undefined = deviceTopicRefusal,
): Post {
  return (url, init) => {
    const refused = refusal(url);
    return refused ? Promise.reject(new Error(refused)) : postOnce(url, init, publicOnlyLookup(resolve));
  };
}

/** The owner's own target (an ntfy topic or push service on the LAN they allowed): any address, still no redirect. */
export const ownerPost: Post = (url, init) => postOnce(url, init);

/** One request over http(s), never a second one: node's http(s).request follows no redirect. */
function postOnce(url: string, init: PostInit, lookup?: LookupFunction): Promise<PostAnswer> {
  return new Promise((settle, fail) => {
    const target = new URL(url);
    const transport = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : undefined;
    if (!transport) {
      fail(new Error(`not an http(s) URL: ${target.protocol}`));
      return;
    }
    const request = transport.request(
      target,
      {
        method: init.method,
        headers: { ...init.headers, 'Content-Length': String(Buffer.byteLength(init.body)) },
        signal: init.signal,
        ...(lookup ? { lookup } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, ANSWER_KEPT);
          settle({ status: response.statusCode ?? 0, text: () => Promise.resolve(text) });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          kept += chunk.length;
          // Enough for a log line: an endless answer is not read on.
          if (kept >= ANSWER_KEPT) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', fail);
      },
    );
    request.on('error', fail);
    request.end(init.body);
  });
}

/** A `lookup` for net.connect that hands over only public addresses, all of them checked. */
export function publicOnlyLookup(resolve: ResolveHost): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const first = addresses[0];
        const bad = addresses.find((entry) => classifyAddress(entry.address) !== 'public');
        if (!first || bad) {
          // The class, never the address: the device that named the host reads this in its push test.
          const why = bad
            ? `${hostname} resolves to a ${classifyAddress(bad.address) ?? 'unknown'} address: what a device names must stay on public addresses`
            : `${hostname} resolves to no address`;
          callback(Object.assign(new Error(why), { code: 'EADDRNOTAVAIL' }), '', 4);
          return;
        }
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}
