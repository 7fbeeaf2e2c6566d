import { TokenBucket, type RateLimit } from '../sockets/token-bucket';

/** Per client address: a few typos are fine, a guessing loop is not. */
export const DEFAULT_PAIR_LIMIT_PER_ADDRESS: RateLimit = { capacity: 10, refillPerSecond: 0.2 };
/** Everyone together: behind a tunnel every request comes from one address, and guesses may come from many. */
export const DEFAULT_PAIR_LIMIT_GLOBAL: RateLimit = { capacity: 60, refillPerSecond: 1 };
/** Addresses remembered at once; beyond it the table starts over (it only ever forgets in the guesser's favour briefly). */
const MAX_ADDRESSES = 4_096;

/**
 * Rate limit of failed pairing attempts (R16.3), per client address and overall. Codes carry 100 random
 * bits, so this is not what keeps them safe; it keeps a guessing loop from costing the host anything.
 * Only failures count: a valid code was minted by the person on the computer, and pairing a drawer of
 * test phones (or every device of a household in one evening) must not lock them out.
 */
export class AttemptLimiter {
  private readonly global: TokenBucket;
  private readonly byAddress = new Map<string, TokenBucket>();

  constructor(
    private readonly limits: { perAddress: RateLimit; global: RateLimit } = {
      perAddress: DEFAULT_PAIR_LIMIT_PER_ADDRESS,
      global: DEFAULT_PAIR_LIMIT_GLOBAL,
    },
    private readonly now: () => number = Date.now,
  ) {
    this.global = new TokenBucket(limits.global.capacity, limits.global.refillPerSecond, now);
  }

  /** False when this address, or everyone, has failed too often lately: refuse before reading the request. */
  allows(address: string): boolean {
    return this.bucket(address).has() && this.global.has();
  }

  /** Counts one failed attempt (a bad request, or a code that is unknown, used or expired). */
  fail(address: string): void {
    this.bucket(address).take();
    this.global.take();
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
