import { type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddressOf, parseTrustedProxy } from './client-address';

const request = (peer: string, forwarded?: string | string[]) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  }) as unknown as IncomingMessage;

describe('[R20.49] the client address behind trusted proxies', () => {
  it('[R20.49] with no trusted proxy the peer is the client, whatever the header says', () => {
    const addressOf = clientAddressOf([]);
    expect(addressOf(request('203.0.113.9', '198.51.100.1'))).toBe('203.0.113.9');
    expect(addressOf(request('::ffff:127.0.0.1'))).toBe('127.0.0.1');
  });

  it('[R20.49] behind a trusted proxy the header is read from the right, trusted hops skipped; what the client wrote stays unread', () => {
    const addressOf = clientAddressOf(['10.0.0.0/8', '127.0.0.1']);
    // nginx on 127.0.0.1 appended the address it saw.
    expect(addressOf(request('::ffff:127.0.0.1', '198.51.100.7'))).toBe('198.51.100.7');
    // A client that forged a first hop: nginx appended the real one after it.
    expect(addressOf(request('127.0.0.1', '192.0.2.66, 198.51.100.7'))).toBe('198.51.100.7');
    // Two proxies of ours (a cloud balancer, then nginx).
    expect(addressOf(request('127.0.0.1', '198.51.100.7, 10.1.2.3'))).toBe('198.51.100.7');
    expect(addressOf(request('127.0.0.1', ['198.51.100.7', '10.1.2.3']))).toBe('198.51.100.7');
    // A peer that is not a trusted proxy: its header is not read.
    expect(addressOf(request('203.0.113.9', '198.51.100.7'))).toBe('203.0.113.9');
    // Garbage ends the walk at the last trusted hop; no header leaves the proxy's own address.
    expect(addressOf(request('127.0.0.1', 'not-an-ip, 10.1.2.3'))).toBe('10.1.2.3');
    expect(addressOf(request('127.0.0.1'))).toBe('127.0.0.1');
    expect(clientAddressOf(['fd00::/8'])(request('fd00::5', '2001:db8::1'))).toBe('2001:db8::1');
  });

  it('[R20.49] a trusted proxy is an address or a CIDR block, nothing else', () => {
    expect(parseTrustedProxy('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseTrustedProxy('fd00::1')).toEqual({ address: 'fd00::1', prefix: 128, family: 'ipv6' });
    for (const bad of ['nginx', '10.0.0.0/33', '10.0.0.0/x', '10.0.0.0/8/1', '', 'fd00::/129'])
      expect(() => parseTrustedProxy(bad)).toThrow(/trusted proxy is an IP address or a CIDR block/);
  });
});
