import { describe, expect, it, vi } from 'vitest';
import { type HostEvent } from '../../../contracts';
import { LogMovedError } from '../event-store';
import { delivered } from '../test-support/event-store-contract';
import { asAdmin } from '../test-support/pg-test-database';
import { databaseOf, setUpPgTestLogs } from '../test-support/pg-test-logs';
import { type PgEventStore } from './pg-event-store';

const { freshLogUrl, open, relay } = setUpPgTestLogs();

describe('[R20.13] PostgreSQL log: appends racing from several replicas', () => {
  it('[R20.13] every seq is read exactly once, in order and dense, while writers race; only stale afterSeqs are refused', async () => {
    const url = await freshLogUrl();
    const writers = await Promise.all([1, 2, 3, 4, 5].map(() => open(url, { maxConnections: 3 })));
    const reader = await open(url, { maxConnections: 1 });
    const ROUNDS = 60;
    const appended: HostEvent[] = [];
    const refusals: LogMovedError[] = [];
    let done = false;

    const write = async (store: PgEventStore, writer: number) => {
      for (let round = 0; round < ROUNDS; round += 1) {
        const events = Array.from({ length: 1 + (round % 3) }, (_, k) => delivered(`w${writer}-${round}-${k}`));
        if (round % 2 === 0) {
          appended.push(...(await store.append(events)));
          continue;
        }
        // Decide on what was read, as the registry does: another writer may append in between.
        const seen = round % 10 === 1 && round > 1 ? 0 : await store.lastSeq();
        try {
          const stored = await store.append(events, { afterSeq: seen });
          expect(stored[0]?.seq).toBe(seen + 1);
          appended.push(...stored);
        } catch (error) {
          if (!(error instanceof LogMovedError)) throw error;
          expect(error.expectedSeq).toBe(seen);
          expect(error.lastSeq).toBeGreaterThan(seen);
          refusals.push(error);
        }
      }
    };

    const seen: number[] = [];
    const tail = async () => {
      let last = 0;
      for (;;) {
        const finished = done;
        const batch = await reader.readSince(last, 7);
        for (const event of batch) {
          // Never a gap: each batch starts right after what was read before.
          expect(event.seq).toBe(last + 1);
          last = event.seq;
          seen.push(event.seq);
        }
        if (finished && batch.length === 0) return;
      }
    };

    const started = performance.now();
    const reading = tail();
    await Promise.all(writers.map((store, index) => write(store, index + 1)));
    done = true;
    await reading;
    const elapsed = performance.now() - started;

    const lastSeq = await reader.lastSeq();
    expect(lastSeq).toBe(appended.length);
    expect(seen).toEqual(Array.from({ length: lastSeq }, (_, index) => index + 1));
    const read = await reader.readSince(0, lastSeq + 1);
    expect(read).toEqual([...appended].sort((a, b) => a.seq - b.seq));
    // Every writer made two decisions on a seq known to be stale (afterSeq 0 on a log that had moved on).
    expect(refusals.length).toBeGreaterThanOrEqual(writers.length * 3);
    expect(elapsed).toBeGreaterThan(0);
    if (process.env.ASKAWAY_REPORT_RACE) {
      console.info(
        `race: ${writers.length} writers × ${ROUNDS} appends, ${appended.length} events, ${refusals.length} refused, ${Math.round(elapsed)} ms`,
      );
    }
  });
});

describe('[R20.13] PostgreSQL log: a replica that goes silent mid-append', () => {
  it('[R20.13] holds the head lock only until the server ends its stalled transaction; the others then append', async () => {
    const url = await freshLogUrl();
    const { url: through, proxy } = await relay(url);
    const silent = await open(through, { stalledTransactionMs: 500 });
    const other = await open(url);
    await other.append([delivered('a')]);

    const frozen = proxy.freezeAfter('FOR UPDATE');
    const stuck = silent.append([delivered('never')]);
    stuck.catch(() => undefined);
    await frozen;
    // The silent replica holds the head: its session sits in its transaction, after the lock was granted.
    await vi.waitFor(async () => expect(await sessionsHoldingTheHead(url)).toHaveLength(1));

    expect((await other.append([delivered('b')])).map((event) => event.seq)).toEqual([2]);
    expect(await sessionsHoldingTheHead(url)).toEqual([]);
    expect(
      (await other.readSince(0, 10)).map((event) => event.type === 'interaction.delivered' && event.requestId),
    ).toEqual(['a', 'b']);
    await proxy.close();
    await expect(stuck).rejects.toThrow(/Cannot append to the event log: its database at .* is unreachable/);
  });
});

/** Sessions of this log's database holding a row lock on the head inside a transaction. */
async function sessionsHoldingTheHead(url: string): Promise<number[]> {
  const rows = await asAdmin<{ pid: number }>(
    `SELECT a.pid FROM pg_stat_activity a
      WHERE a.datname = $1 AND a.state = 'idle in transaction' AND a.query LIKE '%FOR UPDATE%'`,
    [databaseOf(url)],
  );
  return rows.map((row) => row.pid);
}
