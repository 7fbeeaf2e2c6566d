/**
 * Where a team hub's audit record is in the log (R21.60): each `audit.recorded` event's seq and time, in log
 * order, and nothing else. Two numbers an entry, so the hub knows which rows to read for a page or a `--since`
 * without holding the entries themselves in memory or scanning the whole log; the entries are read from the store
 * by seq when asked for.
 */
export class AuditIndex {
  private readonly seqs: number[] = [];
  private readonly times: number[] = [];

  /**
   * The log folds in seq order, so seqs stay sorted. Replicas' clocks may disagree by a little, so a time is kept as
   * at least the one before it: a `since` then never leaves out an entry recorded after it (at worst it takes in one
   * a replica with a slow clock stamped a moment before).
   */
  add(seq: number, at: string): void {
    this.seqs.push(seq);
    this.times.push(Math.max(Date.parse(at), this.times.at(-1) ?? -Infinity));
  }

  get size(): number {
    return this.seqs.length;
  }

  /** Up to `limit` seqs below `before`, newest first. */
  newestBefore(before: number, limit: number): number[] {
    const end = lowerBound(this.seqs, before);
    return this.seqs.slice(Math.max(0, end - limit), end).reverse();
  }

  /** Up to `limit` seqs after `afterSeq` of entries recorded at or after `sinceMs`, oldest first. */
  oldestSince(sinceMs: number, afterSeq: number, limit: number): number[] {
    const start = Math.max(lowerBound(this.times, sinceMs), upperBound(this.seqs, afterSeq));
    return this.seqs.slice(start, start + limit);
  }
}

/** The first index whose value is at least `value`. */
function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] ?? Infinity) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first index whose value is above `value`. */
function upperBound(sorted: readonly number[], value: number): number {
  return lowerBound(sorted, value + 1);
}
