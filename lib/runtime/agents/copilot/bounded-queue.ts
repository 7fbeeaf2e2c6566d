// A map of what the bridge keeps about another program's requests, bounded in count and bytes (R12.19): Copilot
// decides how many prompts it sends and how big they are, the bridge how much of that it holds. Past either
// limit the oldest entry goes, with one log line until the map has had room again.

/** Roughly what a parsed JSON value holds, in bytes: its strings' UTF-16 and a little per value. Iterative. */
export function approxBytes(value: unknown): number {
  let bytes = 0;
  const stack: unknown[] = [value];
  // Values were shape-checked on arrival (R12.18); the count only keeps this loop finite whatever it is given.
  for (let seen = 0; stack.length > 0 && seen < 1_000_000; seen += 1) {
    const item = stack.pop();
    if (typeof item === 'string') bytes += 16 + item.length * 2;
    else if (Array.isArray(item)) {
      bytes += 32;
      for (const child of item as unknown[]) stack.push(child);
    } else if (typeof item === 'object' && item !== null) {
      bytes += 32;
      for (const [key, child] of Object.entries(item)) {
        bytes += 16 + key.length * 2;
        stack.push(child);
      }
    } else bytes += 8;
  }
  return bytes;
}

export interface QueueLimits {
  count: number;
  bytes: number;
}

export class BoundedQueue<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private total = 0;
  private dropping = false;

  constructor(
    private readonly limits: QueueLimits,
    /** Told of each entry dropped; `first`: the first since the queue last had room (log that one). */
    private readonly onDrop: (key: string, first: boolean) => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.total;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    while (this.entries.size > 1 && (this.entries.size > this.limits.count || this.total > this.limits.bytes)) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
      this.onDrop(oldest, !this.dropping);
      this.dropping = true;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
    if (this.entries.size <= this.limits.count / 2 && this.total <= this.limits.bytes / 2) this.dropping = false;
  }

  values(): V[] {
    return [...this.entries.values()].map((entry) => entry.value);
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
    this.dropping = false;
  }
}
