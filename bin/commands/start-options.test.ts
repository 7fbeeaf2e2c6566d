import { describe, expect, it } from 'vitest';
import { parseStartOptions } from './start-options';
import { UsageError } from './types';

const parse = (...argv: string[]) => parseStartOptions(argv, {}, '/pkg');

describe('askaway start flags', () => {
  it('[R8.1] --stale-after takes a duration of at least 30 s; absent keeps the host default', () => {
    expect(parse().staleAfterMs).toBeUndefined();
    expect(parse('--stale-after', '10m').staleAfterMs).toBe(600_000);
    expect(parse('--stale-after', '45s').staleAfterMs).toBe(45_000);
    expect(() => parse('--stale-after', '5s')).toThrow(UsageError);
    expect(() => parse('--stale-after', 'soon')).toThrow(/--stale-after must be a duration of at least 30s/);
  });

  it('[R20.49] --trusted-proxy (repeatable) or ASKAWAY_TRUSTED_PROXIES names the proxies whose X-Forwarded-For is believed', () => {
    expect(parse().trustedProxies).toEqual([]);
    expect(parse('--trusted-proxy', '10.0.0.0/8', '--trusted-proxy', '127.0.0.1').trustedProxies).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    const env = { ASKAWAY_TRUSTED_PROXIES: ' 10.0.0.0/8, fd00::/8 ,' };
    expect(parseStartOptions([], env, '/pkg').trustedProxies).toEqual(['10.0.0.0/8', 'fd00::/8']);
    expect(parseStartOptions(['--trusted-proxy', '192.0.2.1'], env, '/pkg').trustedProxies).toEqual(['192.0.2.1']);
    expect(() => parse('--trusted-proxy', 'nginx')).toThrow(
      /--trusted-proxy: a trusted proxy is an IP address or a CIDR block .+"nginx"/,
    );
    expect(() => parseStartOptions([], { ASKAWAY_TRUSTED_PROXIES: '10.0.0.0/40' }, '/pkg')).toThrow(
      /ASKAWAY_TRUSTED_PROXIES: /,
    );
  });

  it('[R16.2] --pair-ttl takes a duration from 1 s to 24 h and defaults to 10 minutes', () => {
    expect(parse().pairTtlMs).toBe(600_000);
    expect(parse('--pair-ttl', '2m').pairTtlMs).toBe(120_000);
    expect(parse('--pair-ttl', '1s').pairTtlMs).toBe(1_000);
    expect(() => parse('--pair-ttl', '500ms')).toThrow(UsageError);
    expect(() => parse('--pair-ttl', '25h')).toThrow(/--pair-ttl must be a duration from 1s to 24h/);
  });

  it('[R17.3] --name (or ASKAWAY_MACHINE_NAME) names the hub own machine; the host name otherwise', () => {
    expect(parse().hostName.length).toBeGreaterThan(0);
    expect(parse('--name', ' studio ').hostName).toBe('studio');
    expect(parseStartOptions([], { ASKAWAY_MACHINE_NAME: 'hub-box' }, '/pkg').hostName).toBe('hub-box');
    expect(parseStartOptions(['--name', 'flag'], { ASKAWAY_MACHINE_NAME: 'env' }, '/pkg').hostName).toBe('flag');
    expect(() => parse('--name', 'a\u001b[2Jb')).toThrow(/--name must be 1 to 64 printable characters/);
  });

  it('[R12.20] --allow-private-push is the owner’s leave for push services on this machine or the LAN; off by default', () => {
    expect(parse().allowPrivatePush).toBe(false);
    expect(parse('--allow-private-push').allowPrivatePush).toBe(true);
    expect(() => parse('--allow-private-push=yes')).toThrow(UsageError);
  });
});
