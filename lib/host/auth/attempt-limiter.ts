import { TokenBucket, type RateLimit } from '../sockets/token-bucket';

/** Per client address: a few typos are fine, a guessing loop is not. */
export const DEFAULT_PAIR_LIMIT_PER_ADDRESS: RateLimit = { capacity: 10, refillPerSecond: 0.2 };
/** Everyone together: behind a tunnel every request comes from one address, and guesses may come from many. */
export const DEFAULT_PAIR_LIMIT_GLOBAL: RateLimit = { capacity: 60, refillPerSecond: 1 };
/** How long a failed attempt past the limit waits for its answer: a guessing loop slows to its pace. */
export const DEFAULT_FAILURE_PAUSE_MS = 1_000;
/** Failed attempts held at once; past it they are answered at once (the pause must not cost the host memory). */
const MAX_PAUSED = 256;
/** Addresses remembered at once; beyond it the table starts over (it only ever forgets in the guesser's favour briefly). */
const MAX_ADDRESSES = 4_096;

/**
 * Buckets every replica of a team hub counts in (R20.46). `take` takes a token from each bucket that has one
 * and says, in order, which did.
 */
export interface SharedAttemptCounts {
  take(buckets: readonly { key: string; limit: RateLimit }[]): Promise<boolean[]>;
}

/**
 * Failed code exchanges (pairing a device, joining a machine: R16.3, R17.1), per client address and
 * overall. A code carries 100 random bits, so no rate of guessing finds one: this guards the host's
 * resources, not the code space. Hence it only ever counts and slows failures. A valid, unspent code is
 * checked before the limit is, so it always pairs or joins, whoever shares the owner's address: behind a
 * tunnel or `tailscale serve` every client is 127.0.0.1, and a flood from there must not lock the owner out.
 */
export class AttemptLimiter {
  private readonly global: TokenBucket;
  private readonly byAddress = new Map<string, TokenBucket>();
  private paused = 0;

  constructor(
    private readonly limits: {
      perAddress: RateLimit;
      global: RateLimit;
      failurePauseMs?: number;
      /** A team hub's buckets in its database; this process's own count stands in while it cannot be reached. */
      shared?: SharedAttemptCounts;
    } = {
      perAddress: DEFAULT_PAIR_LIMIT_PER_ADDRESS,
      global: DEFAULT_PAIR_LIMIT_GLOBAL,
    },
    private readonly now: () => number = Date.now,
  ) {
    this.global = new TokenBucket(limits.global.capacity, limits.global.refillPerSecond, now);
  }

  /**
   * Counts one failed attempt (a bad request, or a code that is unknown, used or expired). True when this
   * address, or everyone, is past the limit: the caller then answers 429 after `pause()`. On a team hub the count
   * is every replica's.
   */
  async fail(address: string): Promise<boolean> {
    const { shared } = this.limits;
    if (shared !== undefined) {
      try {
        const [mine, everyone] = await shared.take([
          { key: `address ${address}`, limit: this.limits.perAddress },
          { key: 'everyone', limit: this.limits.global },
        ]);
        return mine !== true || everyone !== true;
      } catch {
        // The database is away: count here rather than not at all (a write would be refused anyway).
      }
    }
    const mine = this.bucket(address).take();
    const everyone = this.global.take();
    return !mine || !everyone;
  }

  /** The wait before a failure past the limit is answered; at once when too many are waiting already. */
  async pause(): Promise<void> {
    if (this.paused >= MAX_PAUSED) return;
    this.paused += 1;
    try {
      await new Promise((resolve) => setTimeout(resolve, this.limits.failurePauseMs ?? DEFAULT_FAILURE_PAUSE_MS));
    } finally {
      this.paused -= 1;
    }
  }

  private bucket(address: string): TokenBucket {
    let bucket = this.byAddress.get(address);
    if (!bucket) {
      if (this.byAddress.size >= MAX_ADDRESSES) this.byAddress.clear();
      bucket = new TokenBucket(this.limits.perAddress.capacity, this.limits.perAddress.refillPerSecond, this.now);
      this.byAddress.set(address, bucket);
    }
    return bucket;
  }
}
