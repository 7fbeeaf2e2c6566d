import { describe, expect, it } from 'vitest';
import { pairingLink, parsePairingHash } from './pairing-link';

describe('pairing link', () => {
  it('[R16.2] carries a one-time code in the fragment, and the pair page reads it back', () => {
    const link = pairingLink('https://box.tail.ts.net/', 'ABCDE-FGHJK-MNPQR-STVWX');
    expect(link).toBe('https://box.tail.ts.net/pair#code=ABCDE-FGHJK-MNPQR-STVWX');
    const url = new URL(link);
    expect(url.pathname).toBe('/pair');
    expect(url.search).toBe('');
    expect(parsePairingHash(url.hash)).toEqual({ kind: 'code', code: 'ABCDE-FGHJK-MNPQR-STVWX', hostUrl: '' });
  });

  it('[R9.2] reads an optional host and refuses a fragment without a code', () => {
    expect(parsePairingHash('#code=c&host=http%3A%2F%2F10.0.0.2%3A4417')).toEqual({
      kind: 'code',
      code: 'c',
      hostUrl: 'http://10.0.0.2:4417',
    });
    expect(parsePairingHash('#host=x')).toBeNull();
    expect(parsePairingHash('')).toBeNull();
  });

  it('[R16.7] tells an old shared-token link apart, so the page can say it no longer works', () => {
    expect(parsePairingHash('#token=old-shared-token')).toEqual({ kind: 'legacy-token' });
  });
});
