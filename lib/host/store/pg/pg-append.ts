import type pg from 'pg';
import { type HostEvent, type NewHostEvent } from '../../../contracts';
import { type AppendOptions, LogMovedError, withSeq } from '../event-store';

type Outcome = { appended: HostEvent[] } | { moved: number };

/**
 * Appends `events` after the log's newest seq in one transaction (R20.13):
 *
 * 1. `SELECT last_seq … FOR UPDATE` locks the one-row head; a concurrent append waits here.
 * 2. With `afterSeq`, a head that moved on ends the transaction with nothing written (LogMovedError).
 * 3. The events are inserted with the seqs after the head, the head is moved, and `pg_notify` announces
 *    the new newest seq (delivered at commit, to every replica listening).
 * 4. COMMIT releases the lock.
 *
 * The head stays locked until commit, so the next append reads the head only after this one committed:
 * seqs commit in seq order. A reader's statement that sees seq n therefore sees every seq below n, and a
 * reader tailing readSince never skips a seq that commits later. (A sequence or an identity column would
 * hand out numbers that commit out of order, and a tail could read n + 1 before n becomes visible.)
 */
export async function appendInTransaction(
  client: pg.ClientBase,
  events: readonly NewHostEvent[],
  options: AppendOptions,
  channel: string,
): Promise<Outcome> {
  await client.query('BEGIN');
  try {
    const head = await client.query<{ last_seq: string }>('SELECT last_seq FROM askaway_head WHERE id = 1 FOR UPDATE');
    const row = head.rows[0];
    if (!row) throw new Error('the log has no head row (askaway_head is empty)');
    const lastSeq = Number(row.last_seq);
    const moved = options.afterSeq !== undefined && options.afterSeq !== lastSeq;
    if (moved || events.length === 0) {
      await client.query('ROLLBACK');
      return moved ? { moved: lastSeq } : { appended: [] };
    }
    const stored = withSeq(events, lastSeq + 1);
    const newLast = lastSeq + stored.length;
    // One round trip for the rows, the head and the notification: data-modifying CTEs always run to completion.
    await client.query(
      `WITH inserted AS (
         INSERT INTO askaway_events (seq, type, at, body)
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::json[])
       ), moved_head AS (
         UPDATE askaway_head SET last_seq = $5 WHERE id = 1
       )
       SELECT pg_notify($6, $7)`,
      [
        stored.map((event) => event.seq),
        stored.map((event) => event.type),
        stored.map((event) => event.at),
        stored.map((event) => JSON.stringify(event)),
        newLast,
        channel,
        String(newLast),
      ],
    );
    await client.query('COMMIT');
    return { appended: stored };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Turns a refused conditional append into the contract's error. */
export function appendedOrThrow(outcome: Outcome, options: AppendOptions): HostEvent[] {
  if ('appended' in outcome) return outcome.appended;
  throw new LogMovedError(options.afterSeq ?? outcome.moved, outcome.moved);
}
