import { describe, expect, it } from 'vitest';
import { OneTimeCodes } from './one-time-codes';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('one-time codes', () => {
  it('[R16.2] a code works once, for its purpose only', () => {
    const codes = new OneTimeCodes();
    const { code } = codes.mint('pair-device', 60_000);
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
    expect(codes.redeem('join-machine', code)).toBe(false);
    expect(codes.redeem('pair-device', code)).toBe(true);
    expect(codes.redeem('pair-device', code)).toBe(false);
  });

  it('[R16.2] a code stops working at its expiry', () => {
    const time = clock();
    const codes = new OneTimeCodes(time.now);
    const { code, expiresAt } = codes.mint('pair-device', 10_000);
    expect(expiresAt.getTime()).toBe(time.now() + 10_000);
    time.advance(9_999);
    expect(codes.count('pair-device')).toBe(1);
    time.advance(1);
    expect(codes.redeem('pair-device', code)).toBe(false);
    expect(codes.count('pair-device')).toBe(0);
  });

  it('[R16.3] of two redeems of one code exactly one wins; other codes stay valid', async () => {
    const codes = new OneTimeCodes();
    const first = codes.mint('pair-device', 60_000).code;
    const second = codes.mint('pair-device', 60_000).code;
    const results = await Promise.all([first, first, first].map(async (code) => codes.redeem('pair-device', code)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(codes.redeem('pair-device', second)).toBe(true);
  });

  it('[R16.3] reads a typed code the way a person types it, and refuses near misses', () => {
    const codes = new OneTimeCodes();
    const { code } = codes.mint('pair-device', 60_000);
    const typed = ` ${code.toLowerCase().replaceAll('-', ' ').replaceAll('0', 'o').replaceAll('1', 'l')} `;
    const last = code.at(-1) === '2' ? '3' : '2';
    expect(codes.redeem('pair-device', `${code.slice(0, -1)}${last}`)).toBe(false);
    expect(codes.redeem('pair-device', '')).toBe(false);
    expect(codes.redeem('pair-device', typed)).toBe(true);
  });

  it('[R16.2] keeps a bounded number outstanding: minting more drops the oldest', () => {
    const codes = new OneTimeCodes();
    const minted = Array.from({ length: 40 }, () => codes.mint('pair-device', 60_000).code);
    expect(codes.count('pair-device')).toBe(32);
    expect(codes.redeem('pair-device', minted[0] ?? '')).toBe(false);
    expect(codes.redeem('pair-device', minted[39] ?? '')).toBe(true);
  });
});
