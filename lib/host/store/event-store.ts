import { type HostEvent, type NewHostEvent } from '../../contracts';
import { type CredentialStore } from './credential-store';

/** The conditional append found the log moved on: another writer (a second hub replica) appended first. */
export class LogMovedError extends Error {
  constructor(
    readonly expectedSeq: number,
    readonly lastSeq: number,
  ) {
    super(`The event log moved on: expected its newest seq to be ${expectedSeq}, it is ${lastSeq}`);
    this.name = 'LogMovedError';
  }
}

export interface AppendOptions {
  /**
   * Append only if the log's newest seq is still this one (the seq the caller's decision was made on);
   * otherwise append nothing and reject with LogMovedError. Without it, the events go after whatever is there.
   */
  afterSeq?: number;
}

/**
 * The host's durable, append-only log (R10.2). Every implementation must pass
 * `test-support/event-store-contract.ts`. Asynchronous because a team hub's log is a database across a
 * network (PostgreSQL); the embedded SQLite log resolves at once.
 */
export interface EventStore {
  /**
   * Appends all events in one transaction; resolves with them and their seq, in order, once durable.
   * Seqs are dense and totally ordered: a reader never sees seq n+1 before seq n is readable.
   */
  append(events: readonly NewHostEvent[], options?: AppendOptions): Promise<HostEvent[]>;
  /** Events with seq > `afterSeq`, oldest first, at most `limit`. */
  readSince(afterSeq: number, limit: number): Promise<HostEvent[]>;
  /**
   * The events with these seqs, oldest first; seqs past the head are left out. By primary key, so a reader that
   * knows where some events are (a team hub's audit record, R21.60) reads only those, however long the log.
   */
  readSeqs(seqs: readonly number[]): Promise<HostEvent[]>;
  /** Seq of the newest event, 0 when empty (read from the log, not remembered: another writer may have appended). */
  lastSeq(): Promise<number>;
  /**
   * Calls `listener` with the newest seq whenever any writer (this process or another replica) appended;
   * a hint to read, possibly coalesced or late, never a replacement for readSince. Returns how to stop.
   * A log only this process writes calls it for its own appends.
   */
  watch(listener: (lastSeq: number) => void): () => void;
  /** Random, made once per log: a seq means something only together with it (R10.6). */
  readonly logId: string;
  /** Hashes of device secrets, beside the log but never in it (R16.1). */
  readonly credentials: CredentialStore;
  close(): Promise<void>;
}

/** Attaches seqs to new events; shared so every store numbers events the same way. */
export function withSeq(events: readonly NewHostEvent[], firstSeq: number): HostEvent[] {
  return events.map((event, index) => ({ ...event, seq: firstSeq + index }) as HostEvent);
}
