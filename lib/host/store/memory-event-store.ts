import { randomBytes } from 'node:crypto';
import { type HostEvent, type NewHostEvent } from '../../contracts';
import { MemoryCredentialStore } from './credential-store';
import { type EventStore, withSeq } from './event-store';

/** For tests and `--data-dir :memory:`-style runs: same contract, nothing on disk. */
export class MemoryEventStore implements EventStore {
  readonly logId = randomBytes(12).toString('hex');
  readonly credentials = new MemoryCredentialStore();
  private readonly events: HostEvent[] = [];
  private closed = false;

  append(events: readonly NewHostEvent[]): HostEvent[] {
    this.assertOpen();
    const stored = withSeq(events, this.lastSeq() + 1);
    // Clone so callers cannot mutate the log through the returned objects.
    this.events.push(...stored.map((event) => structuredClone(event)));
    return stored;
  }

  readSince(afterSeq: number, limit: number): HostEvent[] {
    this.assertOpen();
    // seq n sits at index n - 1 because seqs are dense from 1.
    const start = Math.max(0, Math.floor(afterSeq));
    return this.events.slice(start, start + Math.max(0, limit)).map((event) => structuredClone(event));
  }

  lastSeq(): number {
    return this.events.length;
  }

  close(): void {
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Event store is closed');
  }
}
