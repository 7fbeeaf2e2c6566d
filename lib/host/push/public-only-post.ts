import { promises as dns } from 'node:dns';
import https from 'node:https';
import { type LookupFunction } from 'node:net';
import { classifyAddress, deviceTopicRefusal } from './topic-address';
import { type NtfyPost } from './ntfy-sender';

export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

const resolveWithDns: ResolveHost = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** Only the start of an ntfy server's answer is kept: it only ever goes into one log line. */
const ANSWER_KEPT = 4_096;

/**
 * POSTs to a topic a device set (R12.15): the name is resolved here, and the connection goes to the
 * addresses just checked, so a public name that resolves to this machine or the LAN at send time
 * (a rebinding DNS answer) is refused before any byte leaves. No redirect is followed.
 */
export function publicOnlyPost(resolve: ResolveHost = resolveWithDns): NtfyPost {
  return (url, init) =>
    new Promise((settle, fail) => {
      const refusal = deviceTopicRefusal(url);
      if (refusal) {
        fail(new Error(refusal));
        return;
      }
      const request = https.request(
        url,
        {
          method: 'POST',
          headers: { ...init.headers, 'Content-Length': String(Buffer.byteLength(init.body)) },
          signal: init.signal,
          lookup: publicOnlyLookup(resolve),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          response.on('data', (chunk: Buffer) => {
            if (kept < ANSWER_KEPT) chunks.push(chunk);
            kept += chunk.length;
          });
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            settle({ status: response.statusCode ?? 0, text: () => Promise.resolve(text) });
          });
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
          const why = bad
            ? `${hostname} resolves to ${bad.address}, a ${classifyAddress(bad.address) ?? 'unknown'} address: a device's topic must stay on public addresses`
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
