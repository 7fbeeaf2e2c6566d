// Durable log (R10.2): appends per second with the store's durability setting
// (WAL, synchronous = NORMAL by default; ASKAWAY_DURABILITY=full fsyncs each commit), and the projection rebuild
// at start over 100,000 events.
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { LOCAL_MACHINE_ID, type NewHostEvent } from '../lib/contracts';
import { InteractionRegistry } from '../lib/host/registry';
import { SqliteEventStore } from '../lib/host/store/sqlite-event-store';
import { figure, round, type Figure } from './support/figures';
import { tempDir } from './support/host-process';
import { isMain, runAlone } from './support/main-guard';
import { ANSWER, interactionRequest } from './support/payloads';
import { percentile } from './support/stats';

const APPEND_MS = Number(process.env.BENCH_APPEND_MS ?? 3_000);
const REBUILD_EVENTS = Number(process.env.BENCH_REBUILD_EVENTS ?? 100_000);

/** The four events of one answered question, as the registry writes them. */
function lifecycle(index: number): NewHostEvent[][] {
  const { protocolRequestId: _routing, ...interaction } = interactionRequest(`log-${index}`, `session-${index % 100}`);
  const at = new Date().toISOString();
  const requestId = interaction.requestId;
  return [
    [
      // As the registry records it: under the machine that asked (R17.4), here the hub's own.
      {
        type: 'interaction.requested',
        at,
        interaction: { ...interaction, machine: { id: LOCAL_MACHINE_ID, name: 'bench' } },
      },
      { type: 'UserInputAutoResolutionUpdated', at, requestId, autoResolution: { status: 'disabled' } },
    ],
    [
      {
        type: 'interaction.resolved',
        at,
        resolution: { requestId, response: ANSWER, resolvedBy: 'user', resolvedAt: at, clientResponseId: `c-${index}` },
      },
    ],
    [{ type: 'interaction.delivered', at, requestId }],
  ] as NewHostEvent[][];
}

/** Commits one registry command after another (each its own transaction) for `ms`. */
async function appendFor(
  store: SqliteEventStore,
  ms: number,
): Promise<{ commits: number; events: number; latencies: number[] }> {
  const latencies: number[] = [];
  let events = 0;
  const until = performance.now() + ms;
  // The seq the registry's projection stands at: each command appends on condition that the log is still there.
  let head = await store.lastSeq();
  for (let index = 0; performance.now() < until; index += 1) {
    for (const commit of lifecycle(index)) {
      const started = performance.now();
      const stored = await store.append(commit, { afterSeq: head });
      latencies.push(performance.now() - started);
      head = stored.at(-1)?.seq ?? head;
      events += commit.length;
    }
  }
  return { commits: latencies.length, events, latencies };
}

/** For scale only: the same store with fsync turned off, through its private handle. */
function withoutFsync(store: SqliteEventStore): boolean {
  const db = (store as unknown as { db?: Database.Database }).db;
  if (typeof db?.pragma !== 'function') return false;
  db.pragma('synchronous = OFF');
  return true;
}

export async function runDurableLog(): Promise<{ figures: Figure[] }> {
  const dir = tempDir('askaway-bench-log-');
  try {
    const durable = new SqliteEventStore(path.join(dir, 'durable.db'));
    const measured = await appendFor(durable, APPEND_MS);
    await durable.close();
    const fast = new SqliteEventStore(path.join(dir, 'nosync.db'));
    const baseline = withoutFsync(fast) ? await appendFor(fast, Math.min(APPEND_MS, 1_000)) : undefined;
    await fast.close();
    const rate = (run: { commits: number; latencies: number[] }) =>
      run.commits / (run.latencies.reduce((sum, value) => sum + value, 0) / 1000);

    // 100,000 events: requested + auto-resolution + resolved + delivered per question.
    const file = path.join(dir, 'rebuild.db');
    const writer = new SqliteEventStore(file);
    withoutFsync(writer);
    let written = 0;
    for (let index = 0; written < REBUILD_EVENTS; index += 1) {
      const batch = lifecycle(index)
        .flat()
        .slice(0, REBUILD_EVENTS - written);
      await writer.append(batch);
      written += batch.length;
    }
    await writer.close();
    const started = performance.now();
    const reader = new SqliteEventStore(file);
    const registry = await InteractionRegistry.open({ store: reader });
    const rebuildMs = performance.now() - started;
    const folded = registry.projection.seq;
    await reader.close();
    if (folded !== REBUILD_EVENTS) throw new Error(`rebuilt ${folded} events, expected ${REBUILD_EVENTS}`);
    const fileBytes = fs.statSync(file).size;

    return {
      figures: [
        figure({
          name: 'durable log: commits per second',
          value: Math.round(rate(measured)),
          unit: '/s',
          baseline: baseline ? Math.round(rate(baseline)) : undefined,
          note: 'one transaction per registry command (WAL, the store default durability: synchronous=NORMAL unless ASKAWAY_DURABILITY=full); baseline: same store with synchronous=OFF',
        }),
        figure({
          name: 'durable log: events appended per second',
          value: Math.round(measured.events / (APPEND_MS / 1000)),
          unit: '/s',
        }),
        figure({ name: 'durable log: commit p50', value: round(percentile(measured.latencies, 50), 3), unit: 'ms' }),
        figure({ name: 'durable log: commit p99', value: round(percentile(measured.latencies, 99), 3), unit: 'ms' }),
        figure({
          name: 'durable log: projection rebuild at start',
          value: round(rebuildMs, 0),
          unit: 'ms',
          note: `${REBUILD_EVENTS.toLocaleString('en-US')} events (${Math.round(fileBytes / 2 ** 20)} MiB): open the log and fold it (InteractionRegistry.open)`,
        }),
      ],
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await runAlone('durable-log', runDurableLog);
