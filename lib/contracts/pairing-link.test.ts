import { describe, expect, it } from 'vitest';
import { pairingLink, parsePairingHash } from './pairing-link';

describe('pairing link', () => {
  it('[R12.1] carries the token in the fragment, and the pair page reads it back', () => {
    const link = pairingLink('https://box.tail.ts.net/', 'a+b/c=');
    expect(link).toBe('https://box.tail.ts.net/pair#token=a%2Bb%2Fc%3D');
    const url = new URL(link);
    expect(url.pathname).toBe('/pair');
    expect(url.search).toBe('');
    expect(parsePairingHash(url.hash)).toEqual({ token: 'a+b/c=', hostUrl: '' });
  });

  it('[R9.2] reads an optional host and refuses a fragment without a token', () => {
    expect(parsePairingHash('#token=t&host=http%3A%2F%2F10.0.0.2%3A4417')).toEqual({
      token: 't',
      hostUrl: 'http://10.0.0.2:4417',
    });
    expect(parsePairingHash('#host=x')).toBeNull();
    expect(parsePairingHash('')).toBeNull();
  });
});
