/**
 * Per-connection rate limit (R12.3): `capacity` messages at once, refilled at
 * `refillPerSecond`. Each socket has its own bucket, so a flood only slows the
 * flooder; everyone else is served between its refused messages.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly capacity: number,
    private readonly refillPerSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = capacity;
    this.last = now();
  }

  /** Takes `cost` tokens (a message's weight, at most the capacity so any message can pass eventually). */
  take(cost = 1): boolean {
    const weight = this.weight(cost);
    if (!this.has(weight)) return false;
    this.tokens -= weight;
    return true;
  }

  /** Whether `take(cost)` would pass now, without taking anything. */
  has(cost = 1): boolean {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.refillPerSecond);
    this.last = now;
    return this.tokens >= this.weight(cost);
  }

  private weight(cost: number): number {
    return Math.min(Math.max(1, cost), this.capacity);
  }
}

export interface RateLimit {
  capacity: number;
  refillPerSecond: number;
}

/** Runtimes re-announce every pending request each second (R8.1), so they get a far larger budget. */
export const DEFAULT_RUNTIME_RATE_LIMIT: RateLimit = { capacity: 20_000, refillPerSecond: 15_000 };
export const DEFAULT_REMOTE_RATE_LIMIT: RateLimit = { capacity: 60, refillPerSecond: 20 };
/** New interactions one runtime connection may announce (R12.7): a fan-out of 100 at once, then 10 a second. */
export const DEFAULT_NEW_INTERACTION_LIMIT: RateLimit = { capacity: 100, refillPerSecond: 10 };
