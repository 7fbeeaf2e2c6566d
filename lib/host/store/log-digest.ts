import { createHash } from 'node:crypto';
import { type HostEvent } from '../../contracts';
import { type EventStore } from './event-store';

/** Every event of a log, oldest first, `size` at a time: memory stays flat however long the log is. */
export async function* eventBatches(store: Pick<EventStore, 'readSince'>, size = 1_000): AsyncGenerator<HostEvent[]> {
  let after = 0;
  for (;;) {
    const batch = await store.readSince(after, size);
    if (batch.length === 0) return;
    yield batch;
    after = batch.at(-1)?.seq ?? after;
  }
}

export interface LogDigest {
  events: number;
  lastSeq: number;
  /** sha256 over every event's JSON, in seq order. */
  digest: string;
}

/**
 * What a log holds, in a form two logs can be compared by (R20.34): read through the EventStore contract, so
 * a SQLite log and a PostgreSQL one are read the same way their hubs read them.
 */
export async function digestLog(store: Pick<EventStore, 'readSince'>): Promise<LogDigest> {
  const hash = createHash('sha256');
  let events = 0;
  let lastSeq = 0;
  for await (const batch of eventBatches(store)) {
    for (const event of batch) hash.update(`${JSON.stringify(event)}\n`);
    events += batch.length;
    lastSeq = batch.at(-1)?.seq ?? lastSeq;
  }
  return { events, lastSeq, digest: hash.digest('hex') };
}
