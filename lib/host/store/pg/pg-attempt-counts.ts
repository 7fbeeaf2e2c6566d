import { type RateLimit } from '../../sockets/token-bucket';
import { type SharedAttemptCounts } from '../../auth/attempt-limiter';
import { type PgDatabase } from './pg-database';

/** Rows untouched this long are full buckets again: a sweep drops them. */
const FORGET_AFTER = '1 hour';
/** One sweep per this many counted failures, from each replica. */
const SWEEP_EVERY = 200;

/**
 * The failed-attempt buckets of a team hub (R20.46), in `askaway_attempts`, so n replicas allow one hub's failed
 * pairing and join attempts, not n times as many. Each failure is one statement: every key's bucket is refilled
 * for the time since it was last touched, then one token is taken where there is one; PostgreSQL's row locks
 * serialise two replicas counting the same key. Only failures come here, so a hub pays nothing for valid codes.
 */
export class PgAttemptCounts implements SharedAttemptCounts {
  private counted = 0;

  constructor(private readonly db: PgDatabase) {}

  async take(buckets: readonly { key: string; limit: RateLimit }[]): Promise<boolean[]> {
    this.counted += 1;
    if (this.counted % SWEEP_EVERY === 0)
      await this.db.query('count failed attempts in', `DELETE FROM askaway_attempts WHERE at < now() - $1::interval`, [
        FORGET_AFTER,
      ]);
    const refilled = `LEAST(a.capacity, a.tokens + EXTRACT(EPOCH FROM clock_timestamp() - a.at) * a.refill_per_second)`;
    const rows = await this.db.query<{ key: string; allowed: boolean }>(
      'count failed attempts in',
      `INSERT INTO askaway_attempts AS a (key, capacity, refill_per_second, tokens, allowed, at)
         SELECT key, capacity, refill, capacity - 1, true, clock_timestamp()
         FROM unnest($1::text[], $2::float8[], $3::float8[]) AS t(key, capacity, refill)
       ON CONFLICT (key) DO UPDATE SET
         capacity = EXCLUDED.capacity,
         refill_per_second = EXCLUDED.refill_per_second,
         tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
         allowed = ${refilled} >= 1,
         at = clock_timestamp()
       RETURNING key, allowed`,
      [
        buckets.map((bucket) => bucket.key),
        buckets.map((bucket) => bucket.limit.capacity),
        buckets.map((bucket) => bucket.limit.refillPerSecond),
      ],
    );
    const allowed = new Map(rows.map((row) => [row.key, row.allowed]));
    return buckets.map((bucket) => allowed.get(bucket.key) ?? false);
  }
}
