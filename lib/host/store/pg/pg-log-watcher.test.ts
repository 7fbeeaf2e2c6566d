import { describe, expect, it, vi } from 'vitest';
import { delivered } from '../test-support/event-store-contract';
import { asAdmin } from '../test-support/pg-test-database';
import { databaseOf, setUpPgTestLogs } from '../test-support/pg-test-logs';

const { databaseUrl, freshLogUrl, open } = setUpPgTestLogs();

describe('[R20.16] PostgreSQL log: watching for other replicas’ appends', () => {
  it('[R20.16] hears another replica’s append through NOTIFY', async () => {
    const url = await freshLogUrl();
    const watching = await open(url);
    const other = await open(url);
    const heard: number[] = [];
    const stop = watching.watch((seq) => heard.push(seq));
    await vi.waitFor(async () => expect(await listenerPids(url)).toHaveLength(1));
    await other.append([delivered('a'), delivered('b'), delivered('c')]);
    await vi.waitFor(() => expect(heard).toEqual([3]));
    // The last listener gone, the LISTEN connection goes too.
    stop();
    await vi.waitFor(async () => expect(await listenerPids(url)).toEqual([]));
  });

  it('[R20.16] reconnects a listener whose connection the server ended, and hears later appends', async () => {
    const url = await freshLogUrl();
    const lines: string[] = [];
    const watching = await open(url, { log: (line) => lines.push(line) });
    const other = await open(url);
    const heard: number[] = [];
    watching.watch((seq) => heard.push(seq));
    await vi.waitFor(async () => expect(await listenerPids(url)).toHaveLength(1));
    const [pid] = await listenerPids(url);
    await asAdmin('SELECT pg_terminate_backend($1)', [pid]);
    await vi.waitFor(() => expect(lines.join('\n')).toMatch(/Lost the event log's notifications/));
    await vi.waitFor(async () => {
      const pids = await listenerPids(url);
      expect(pids).toHaveLength(1);
      expect(pids).not.toContain(pid);
    });
    await other.append([delivered('a')]);
    await vi.waitFor(() => expect(heard).toEqual([1]));
    expect(lines.join('\n')).toMatch(/Listening to the event log's database .* again/);
    expect(lines.join('\n')).not.toContain(new URL(databaseUrl()).password);
  });
});

/** Backends of this log's database that LISTEN (a watcher's dedicated connection). */
async function listenerPids(url: string): Promise<number[]> {
  const rows = await asAdmin<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'askaway log watch'",
    [databaseOf(url)],
  );
  return rows.map((row) => row.pid);
}
