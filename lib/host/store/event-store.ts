import { type HostEvent, type NewHostEvent } from '../../contracts';
import { type CredentialStore } from './credential-store';

/**
 * The host's durable, append-only log (R10.2). Every implementation must pass
 * `event-store.contract.test.ts`.
 */
export interface EventStore {
  /** Appends all events in one transaction; returns them with their seq, in order. */
  append(events: readonly NewHostEvent[]): HostEvent[];
  /** Events with seq > `afterSeq`, oldest first, at most `limit`. */
  readSince(afterSeq: number, limit: number): HostEvent[];
  /** Seq of the newest event, 0 when empty. */
  lastSeq(): number;
  /** Random, made once per log: a seq means something only together with it (R10.6). */
  readonly logId: string;
  /** Hashes of device secrets, beside the log but never in it (R16.1). */
  readonly credentials: CredentialStore;
  close(): void;
}

/** Attaches seqs to new events; shared so both stores number events the same way. */
export function withSeq(events: readonly NewHostEvent[], firstSeq: number): HostEvent[] {
  return events.map((event, index) => ({ ...event, seq: firstSeq + index }) as HostEvent);
}
