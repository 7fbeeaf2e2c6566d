/**
 * Scheduled auto-resolution deadlines by requestId, earliest first (R6.4).
 * A min-heap with lazy deletion: setting or removing a deadline is O(log n),
 * so a commit no longer scans every pending interaction to re-arm the timer.
 */
export class DeadlineQueue {
  private readonly deadlines = new Map<string, number>();
  /** May hold superseded entries; an entry counts only while it matches `deadlines`. */
  private heap: { at: number; requestId: string }[] = [];

  get size(): number {
    return this.deadlines.size;
  }

  set(requestId: string, deadlineMs: number): void {
    if (this.deadlines.get(requestId) === deadlineMs) return;
    this.deadlines.set(requestId, deadlineMs);
    this.push({ at: deadlineMs, requestId });
  }

  delete(requestId: string): void {
    if (!this.deadlines.delete(requestId)) return;
    // Superseded entries are dropped when they reach the top; compact when they dominate.
    if (this.heap.length > 64 && this.heap.length > 2 * this.deadlines.size) this.rebuild();
  }

  /** The earliest deadline (epoch ms), or null when nothing is scheduled. */
  earliest(): number | null {
    this.dropStale();
    return this.heap[0]?.at ?? null;
  }

  /** requestIds whose deadline is at or before `nowMs`, earliest first; they stay queued. */
  due(nowMs: number): string[] {
    // Only the heap's subtree at or before nowMs is visited: O(due), not O(pending).
    const found = new Map<string, number>();
    const stack = [0];
    for (let index = stack.pop(); index !== undefined; index = stack.pop()) {
      const entry = this.heap[index];
      if (entry === undefined || entry.at > nowMs) continue;
      if (this.deadlines.get(entry.requestId) === entry.at) found.set(entry.requestId, entry.at);
      stack.push(2 * index + 1, 2 * index + 2);
    }
    return [...found].sort((a, b) => a[1] - b[1]).map(([requestId]) => requestId);
  }

  clear(): void {
    this.deadlines.clear();
    this.heap = [];
  }

  private dropStale(): void {
    for (
      let top = this.heap[0];
      top !== undefined && this.deadlines.get(top.requestId) !== top.at;
      top = this.heap[0]
    ) {
      this.pop();
    }
  }

  private rebuild(): void {
    this.heap = [];
    for (const [requestId, at] of this.deadlines) this.push({ at, requestId });
  }

  private push(entry: { at: number; requestId: string }): void {
    const heap = this.heap;
    heap.push(entry);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = heap[parent];
      if (above === undefined || above.at <= entry.at) break;
      heap[index] = above;
      index = parent;
    }
    heap[index] = entry;
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      let smallestAt = last.at;
      const leftEntry = heap[left];
      const rightEntry = heap[right];
      if (leftEntry !== undefined && leftEntry.at < smallestAt) {
        smallest = left;
        smallestAt = leftEntry.at;
      }
      if (rightEntry !== undefined && rightEntry.at < smallestAt) smallest = right;
      if (smallest === index) break;
      const child = heap[smallest];
      if (child === undefined) break;
      heap[index] = child;
      index = smallest;
    }
    heap[index] = last;
  }
}
