import { randomBytes } from 'node:crypto';
import { type HostEvent, type NewHostEvent } from '../../contracts';
import { MemoryCredentialStore } from './credential-store';
import { type AppendOptions, type EventStore, LogMovedError, withSeq } from './event-store';
import { LogWatchers } from './log-watchers';

/**
 * For tests and `--data-dir :memory:`-style runs: same contract, nothing on disk. Several registries may
 * share one instance, standing for hub replicas on one log: the conditional append keeps them honest.
 */
export class MemoryEventStore implements EventStore {
  readonly logId = randomBytes(12).toString('hex');
  readonly credentials = new MemoryCredentialStore();
  private readonly events: HostEvent[] = [];
  private readonly watchers = new LogWatchers();
  private closed = false;

  async append(events: readonly NewHostEvent[], options: AppendOptions = {}): Promise<HostEvent[]> {
    this.assertOpen();
    const head = this.events.length;
    if (options.afterSeq !== undefined && options.afterSeq !== head) throw new LogMovedError(options.afterSeq, head);
    const stored = withSeq(events, head + 1);
    // Clone so callers cannot mutate the log through the returned objects.
    this.events.push(...stored.map((event) => structuredClone(event)));
    if (stored.length > 0) this.watchers.appended(this.events.length);
    return stored;
  }

  async readSince(afterSeq: number, limit: number): Promise<HostEvent[]> {
    this.assertOpen();
    // seq n sits at index n - 1 because seqs are dense from 1.
    const start = Math.max(0, Math.floor(afterSeq));
    return this.events.slice(start, start + Math.max(0, limit)).map((event) => structuredClone(event));
  }

  async readSeqs(seqs: readonly number[]): Promise<HostEvent[]> {
    this.assertOpen();
    return [...new Set(seqs)]
      .sort((a, b) => a - b)
      .flatMap((seq) => {
        const event = Number.isInteger(seq) && seq > 0 ? this.events[seq - 1] : undefined;
        return event ? [structuredClone(event)] : [];
      });
  }

  async lastSeq(): Promise<number> {
    this.assertOpen();
    return this.events.length;
  }

  watch(listener: (lastSeq: number) => void): () => void {
    return this.watchers.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watchers.clear();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Event store is closed');
  }
}
