import { beforeAll, describe, expect, it } from 'vitest';
import { asAdmin } from '../store/test-support/pg-test-database';
import { setUpPgTestLogs } from '../store/test-support/pg-test-logs';
import { OneTimeCodes, type OneTimeCodeBook } from './one-time-codes';

function clock(start = 1_000_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const logs = setUpPgTestLogs();

/** The same behaviour from a personal hub's memory and from a team hub's database (R20.42). */
const books: [string, (now?: () => number) => Promise<OneTimeCodeBook>][] = [
  ['in memory', (now) => Promise.resolve(new OneTimeCodes(now))],
  [
    'in PostgreSQL',
    // A code's expiry is the hub's clock, not the database's: the test's clock moves it.
    async (now) => (await logs.open(await logs.freshLogUrl(), { now })).codes,
  ],
];

describe.each(books)('one-time codes %s', (_name, makeBook) => {
  it('[R16.2] a code works once, for its purpose only', async () => {
    const codes = await makeBook();
    const { code } = await codes.mint('pair-device', 60_000);
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
    expect(await codes.redeem('join-machine', code)).toBe(false);
    expect(await codes.redeem('pair-device', code)).toBe(true);
    expect(await codes.redeem('pair-device', code)).toBe(false);
  });

  it('[R16.2] a code stops working at its expiry', async () => {
    const time = clock();
    const codes = await makeBook(time.now);
    const { code, expiresAt } = await codes.mint('pair-device', 10_000);
    expect(expiresAt.getTime()).toBe(time.now() + 10_000);
    time.advance(9_999);
    expect(await codes.count('pair-device')).toBe(1);
    time.advance(1);
    expect(await codes.redeem('pair-device', code)).toBe(false);
    expect(await codes.count('pair-device')).toBe(0);
  });

  it('[R16.3][R20.42] of concurrent redeems of one code exactly one wins; other codes stay valid', async () => {
    const codes = await makeBook();
    const first = (await codes.mint('pair-device', 60_000)).code;
    const second = (await codes.mint('pair-device', 60_000)).code;
    const results = await Promise.all([first, first, first, first].map((code) => codes.redeem('pair-device', code)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await codes.redeem('pair-device', second)).toBe(true);
  });

  it('[R16.3] reads a typed code the way a person types it, and refuses near misses', async () => {
    const codes = await makeBook();
    const { code } = await codes.mint('pair-device', 60_000);
    const typed = ` ${code.toLowerCase().replaceAll('-', ' ').replaceAll('0', 'o').replaceAll('1', 'l')} `;
    const last = code.at(-1) === '2' ? '3' : '2';
    expect(await codes.redeem('pair-device', `${code.slice(0, -1)}${last}`)).toBe(false);
    expect(await codes.redeem('pair-device', '')).toBe(false);
    expect(await codes.redeem('pair-device', typed)).toBe(true);
  });

  it('[R16.2] keeps a bounded number outstanding: minting more drops the oldest', async () => {
    const time = clock();
    const codes = await makeBook(time.now);
    const minted: string[] = [];
    for (let index = 0; index < 40; index += 1) {
      minted.push((await codes.mint('pair-device', 60_000)).code);
      time.advance(1);
    }
    expect(await codes.count('pair-device')).toBe(32);
    expect(await codes.redeem('pair-device', minted[0] ?? '')).toBe(false);
    expect(await codes.redeem('pair-device', minted[39] ?? '')).toBe(true);
  });

  it('[R12.6][R20.42] an exchange that throws or declines gives the code back; one that spends it does not', async () => {
    const codes = await makeBook();
    const { code } = await codes.mint('join-machine', 60_000);
    await expect(codes.exchange('join-machine', code, () => Promise.reject(new Error('disk full')))).rejects.toThrow(
      'disk full',
    );
    expect(await codes.exchange('join-machine', code, () => Promise.resolve({ spend: false, value: 1 }))).toEqual({
      redeemed: true,
      value: 1,
    });
    expect(await codes.exchange('join-machine', code, () => Promise.resolve({ spend: true, value: 2 }))).toEqual({
      redeemed: true,
      value: 2,
    });
    expect(await codes.exchange('join-machine', code, () => Promise.resolve({ spend: true, value: 3 }))).toEqual({
      redeemed: false,
    });
  });
});

describe('[R20.42] one-time codes shared by replicas', () => {
  let url = '';
  beforeAll(async () => {
    url = await logs.freshLogUrl();
  });

  it('[R20.42] a code minted through one replica’s store works once through another’s, and the table holds only its hash', async () => {
    const [a, b] = [await logs.open(url), await logs.open(url)];
    const { code } = await a.codes.mint('pair-device', 60_000);
    const results = await Promise.all([b.codes.redeem('pair-device', code), a.codes.redeem('pair-device', code)]);
    expect(results.sort()).toEqual([false, true]);
    const raw = await asAdmin('SELECT * FROM askaway_codes', [], url);
    expect(JSON.stringify(raw)).not.toContain(code.replaceAll('-', ''));
    expect(raw).toHaveLength(1);
  });
});
