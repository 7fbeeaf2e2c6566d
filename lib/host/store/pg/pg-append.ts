import type pg from 'pg';
import { type HostEvent, type NewHostEvent } from '../../../contracts';
import { type AppendOptions, LogMovedError, withSeq } from '../event-store';
import { type PgDatabase } from './pg-database';

type Outcome = { appended: HostEvent[] } | { moved: number };

/**
 * A conditional append (`afterSeq`, the registry's every commit, R20.2) in one statement, so one round trip, and the
 * head row locked only while the statement runs:
 *
 * 1. `UPDATE askaway_head … WHERE last_seq = afterSeq` locks the head; a concurrent append waits there. When the
 *    other commits, PostgreSQL checks the condition again against the row it committed (READ COMMITTED), so a head
 *    that moved on updates nothing.
 * 2. The events (numbered after `afterSeq`) are inserted, and `pg_notify` called, only for the row the UPDATE
 *    returned: a moved head writes nothing and notifies no one.
 * 3. The statement commits on its own, releasing the lock: seqs still commit in seq order, as in
 *    `appendInTransaction`.
 *
 * A refusal reads the head once more (a statement of its own sees the commit that moved it) to say where it is.
 */
export async function appendAfter(
  db: PgDatabase,
  events: readonly NewHostEvent[],
  afterSeq: number,
  channel: string,
): Promise<Outcome> {
  if (events.length > 0) {
    const stored = withSeq(events, afterSeq + 1);
    const newLast = afterSeq + stored.length;
    const rows = await db.query(
      'append to',
      `WITH moved_head AS (
         UPDATE askaway_head SET last_seq = $5 WHERE id = 1 AND last_seq = $6 RETURNING last_seq
       ), inserted AS (
         INSERT INTO askaway_events (seq, type, at, body)
         SELECT e.seq, e.type, e.at, e.body
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::json[]) AS e(seq, type, at, body), moved_head
       )
       SELECT pg_notify($7, $8) FROM moved_head`,
      [
        stored.map((event) => event.seq),
        stored.map((event) => event.type),
        stored.map((event) => event.at),
        stored.map((event) => JSON.stringify(event)),
        newLast,
        afterSeq,
        channel,
        String(newLast),
      ],
    );
    if (rows.length === 1) return { appended: stored };
  }
  const head = await db.query<{ last_seq: string }>('append to', 'SELECT last_seq FROM askaway_head WHERE id = 1');
  const row = head[0];
  if (!row) throw new Error('the log has no head row (askaway_head is empty)');
  const lastSeq = Number(row.last_seq);
  return events.length === 0 && lastSeq === afterSeq ? { appended: [] } : { moved: lastSeq };
}

/**
 * Appends `events` after the log's newest seq, whatever it is, in one transaction (R20.13):
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
