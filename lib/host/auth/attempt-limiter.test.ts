import { describe, expect, it } from 'vitest';
import { AttemptLimiter, type SharedAttemptCounts } from './attempt-limiter';

const limits = { perAddress: { capacity: 2, refillPerSecond: 0.001 }, global: { capacity: 100, refillPerSecond: 1 } };

describe('[R20.46] a team hub counts failed attempts in its database', () => {
  it('[R20.46] the shared buckets decide while they answer; this process counts for itself while they cannot', async () => {
    let reachable = true;
    const asked: string[][] = [];
    const shared: SharedAttemptCounts = {
      take: (buckets) => {
        asked.push(buckets.map((bucket) => bucket.key));
        if (!reachable) return Promise.reject(new Error('connect ECONNREFUSED'));
        // Another replica has spent this address's budget already.
        return Promise.resolve(buckets.map((bucket) => bucket.key === 'everyone'));
      },
    };
    const limiter = new AttemptLimiter({ ...limits, shared });
    expect(await limiter.fail('10.0.0.7')).toBe(true);
    expect(asked).toEqual([['address 10.0.0.7', 'everyone']]);

    reachable = false;
    expect([await limiter.fail('10.0.0.7'), await limiter.fail('10.0.0.7'), await limiter.fail('10.0.0.7')]).toEqual([
      false,
      false,
      true,
    ]);
  });
});
