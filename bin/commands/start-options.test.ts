import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

  describe('[R21.1][R21.3] a team hub’s sign-in flags', () => {
    const secretEnv = { ASKAWAY_OIDC_CLIENT_SECRET: ' s3cret \n' };
    const oidc = (argv: string[], env: Record<string, string> = secretEnv) => parseStartOptions(argv, env, '/pkg').oidc;
    const issuerFlags = ['--oidc-issuer', 'https://login.example.com', '--oidc-client-id', 'askaway'];

    it('[R21.2] without --oidc-issuer the hub is one person’s, and the other sign-in flags are refused', () => {
      expect(oidc([])).toBeUndefined();
      expect(() => oidc(['--oidc-client-id', 'x'])).toThrow('--oidc-client-id need --oidc-issuer');
      expect(() => oidc(['--oidc-owner', 'a@b.c'])).toThrow(/--oidc-owner need --oidc-issuer/);
    });

    it('[R21.1] takes the issuer, the client id, the secret from the environment and an owner', () => {
      expect(oidc([...issuerFlags, '--oidc-owner', 'ana@example.com'])).toEqual({
        issuer: 'https://login.example.com',
        clientId: 'askaway',
        clientSecret: 's3cret',
        ownerEmail: 'ana@example.com',
      });
      // A provider under a path (a tenant, a realm) keeps it, as it names itself.
      expect(oidc(['--oidc-issuer', 'https://sso.example.com/realms/eng', '--oidc-client-id', 'a'])?.issuer).toBe(
        'https://sso.example.com/realms/eng',
      );
      expect(oidc(['--oidc-issuer', 'http://127.0.0.1:8080', '--oidc-client-id', 'a'])?.issuer).toBe(
        'http://127.0.0.1:8080',
      );
      // Discovery compares the provider's issuer with this string exactly: a trailing slash stays.
      expect(oidc(['--oidc-issuer', 'https://tenant.auth0.com/', '--oidc-client-id', 'a'])?.issuer).toBe(
        'https://tenant.auth0.com/',
      );
    });

    it('[R21.1] refuses an issuer that is not an https URL without query (plain http only on this machine)', () => {
      for (const bad of ['login.example.com', 'http://login.example.com', 'ftp://x', 'https://x/?a=1', 'https://u:p@x'])
        expect(() => oidc(['--oidc-issuer', bad, '--oidc-client-id', 'a']), bad).toThrow(/--oidc-issuer must/);
      expect(() => oidc(['--oidc-issuer', 'https://x'])).toThrow('--oidc-issuer needs --oidc-client-id');
      expect(() => oidc([...issuerFlags.slice(0, 2), '--oidc-client-id', 'has space'])).toThrow(/--oidc-client-id/);
      expect(() => oidc([...issuerFlags, '--oidc-owner', 'ana'])).toThrow('--oidc-owner must be an email address');
    });

    it('[R21.3] the client secret comes from the environment or a file, never from a flag, and must be there', () => {
      expect(() => oidc(issuerFlags, {})).toThrow(
        '--oidc-issuer needs the client secret: set ASKAWAY_OIDC_CLIENT_SECRET or give --oidc-client-secret-file',
      );
      for (const flag of [['--oidc-client-secret', 'hunter2'], ['--oidc-client-secret=hunter2']])
        expect(() => oidc([...issuerFlags, ...flag])).toThrow(/the client secret is never a flag: ps shows/);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askaway-people-flags-'));
      const file = path.join(dir, 'secret');
      fs.writeFileSync(file, 'from-a-file\n');
      expect(oidc([...issuerFlags, '--oidc-client-secret-file', file], {})?.clientSecret).toBe('from-a-file');
      expect(() => oidc([...issuerFlags, '--oidc-client-secret-file', file])).toThrow(/give the client secret once/);
      expect(() => oidc([...issuerFlags, '--oidc-client-secret-file', path.join(dir, 'none')], {})).toThrow(
        /cannot read .+none \(ENOENT\)/,
      );
      fs.writeFileSync(file, '\n');
      expect(() => oidc([...issuerFlags, '--oidc-client-secret-file', file], {})).toThrow(/is empty/);
      fs.rmSync(dir, { recursive: true });
    });
  });
});
