import { describe, expect, it } from 'vitest';
import { blockedHookAddress, httpHookUrlProblem } from './http-hook-address';

describe('addresses Claude Code refuses for HTTP hooks', () => {
  it.each([
    ['10.0.0.5', 'private (10.0.0.0/8)'],
    ['172.16.0.1', 'private (172.16.0.0/12)'],
    ['172.31.255.254', 'private (172.16.0.0/12)'],
    ['192.168.1.20', 'private (192.168.0.0/16)'],
    ['169.254.169.254', 'link-local (169.254.0.0/16)'],
    ['100.64.0.1', 'carrier-grade NAT (100.64.0.0/10)'],
    ['100.101.102.103', 'carrier-grade NAT (100.64.0.0/10)'],
    ['0.0.0.0', 'this-network (0.0.0.0/8)'],
    ['168.63.129.16', 'a cloud metadata address'],
    ['fc00::1', 'unique local (fc00::/7)'],
    ['fd7a:115c:a1e0::1', 'unique local (fc00::/7)'],
    ['fe80::1', 'link-local (fe80::/10)'],
    ['::', 'unspecified (::)'],
    ['::ffff:192.168.1.20', 'private (192.168.0.0/16), inside an IPv6 address'],
    ['::ffff:c0a8:114', 'private (192.168.0.0/16), inside an IPv6 address'],
    ['2002:c0a8:0114::1', 'private (192.168.0.0/16), inside an IPv6 address'],
    ['2002:7f00:1::', 'an IPv6 form of 127.0.0.1'],
    ['64:ff9b:1::1', 'local-use NAT64 (64:ff9b:1::/48)'],
  ])('[R11.6][R12.1] %s is blocked: %s', (address, reason) => {
    expect(blockedHookAddress(address)).toBe(reason);
  });

  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '::1',
    '::ffff:127.0.0.1',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700::1111',
  ])('[R11.6][R12.1] %s is allowed (loopback or public)', (address) => {
    expect(blockedHookAddress(address)).toBeUndefined();
  });

  it('[R11.6] a URL is checked by its host; a name by every address it resolves to', async () => {
    const resolve = (addresses: string[]) => () => Promise.resolve(addresses);
    const fail = () => Promise.reject(new Error('ENOTFOUND'));
    expect(await httpHookUrlProblem('http://127.0.0.1:4417')).toBeNull();
    expect(await httpHookUrlProblem('http://[::1]:4417')).toBeNull();
    expect(await httpHookUrlProblem('http://192.168.1.20:4417')).toBe('192.168.1.20 is private (192.168.0.0/16)');
    expect(await httpHookUrlProblem('http://[fe80::1]:4417')).toBe('fe80::1 is link-local (fe80::/10)');
    expect(await httpHookUrlProblem('https://box.tailnet.ts.net', resolve(['100.88.1.2']))).toBe(
      'box.tailnet.ts.net resolves to 100.88.1.2, carrier-grade NAT (100.64.0.0/10)',
    );
    expect(await httpHookUrlProblem('https://hooks.example.com', resolve(['93.184.216.34', '10.1.1.1']))).toBe(
      'hooks.example.com resolves to 10.1.1.1, private (10.0.0.0/8)',
    );
    expect(await httpHookUrlProblem('http://localhost:4417', resolve(['127.0.0.1', '::1']))).toBeNull();
    // A name this machine cannot resolve may resolve where Claude Code runs: not refused.
    expect(await httpHookUrlProblem('https://elsewhere.internal', fail)).toBeNull();
    expect(await httpHookUrlProblem('not a url')).toBe('not a url is not a URL');
  });
});
