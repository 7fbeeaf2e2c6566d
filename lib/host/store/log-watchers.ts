/**
 * The listeners of `EventStore.watch` for a log only this process writes: told after each of its own
 * appends. Called on a later microtask, so a listener never runs inside the append it hears of and what
 * it throws cannot turn a durable commit into a failed one.
 */
export class LogWatchers {
  private readonly listeners = new Set<(lastSeq: number) => void>();

  add(listener: (lastSeq: number) => void): () => void {
    // A wrapper per call: the same function watched twice is stopped once per returned function.
    const entry = (lastSeq: number) => listener(lastSeq);
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  appended(lastSeq: number): void {
    if (this.listeners.size === 0) return;
    const listeners = [...this.listeners];
    queueMicrotask(() => {
      for (const listener of listeners) listener(lastSeq);
    });
  }

  clear(): void {
    this.listeners.clear();
  }
}
