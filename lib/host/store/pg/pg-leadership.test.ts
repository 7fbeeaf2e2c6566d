import { describe, expect, it, vi } from 'vitest';
import { setUpPgTestLogs } from '../test-support/pg-test-logs';
import { type PgLeadership } from './pg-leadership';

const logs = setUpPgTestLogs();
const RETRY_MS = 200;

async function started(leadership: PgLeadership, stops: PgLeadership[]): Promise<PgLeadership> {
  stops.push(leadership);
  await leadership.start();
  return leadership;
}

describe('[R20.43] the leader among replicas', () => {
  it('[R20.43] one replica of a log leads; when it stops, another takes over at its next try', async () => {
    const url = await logs.freshLogUrl();
    const stops: PgLeadership[] = [];
    try {
      const [a, b, other] = [await logs.open(url), await logs.open(url), await logs.open(await logs.freshLogUrl())];
      const first = await started(a.leadership({ retryMs: RETRY_MS }), stops);
      const second = await started(b.leadership({ retryMs: RETRY_MS }), stops);
      // Another log in the same database has a leader of its own.
      const elsewhere = await started(other.leadership({ retryMs: RETRY_MS }), stops);
      expect([first.leading, second.leading, elsewhere.leading]).toEqual([true, false, true]);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 3));
      expect(second.leading).toBe(false);
      const changes: boolean[] = [];
      second.onChange((leading) => changes.push(leading));
      await first.stop();
      expect(first.leading).toBe(false);
      await vi.waitFor(() => expect(second.leading).toBe(true), { timeout: RETRY_MS * 10 });
      expect(changes).toEqual([true]);
    } finally {
      await Promise.all(stops.map((leadership) => leadership.stop()));
    }
  });

  it('[R20.43] a leader whose connection is lost stops leading at once, and leads again once it is back', async () => {
    const url = await logs.freshLogUrl();
    const { url: relayed, proxy } = await logs.relay(url);
    const stops: PgLeadership[] = [];
    const lines: string[] = [];
    try {
      const store = await logs.open(url);
      const leader = await started(store.leadership({ retryMs: RETRY_MS, log: (line) => lines.push(line) }), stops);
      // The election's own connection goes through the relay: build it from a store opened there.
      const relayedStore = await logs.open(relayed);
      await leader.stop();
      const cut = await started(relayedStore.leadership({ retryMs: RETRY_MS, log: (line) => lines.push(line) }), stops);
      expect(cut.leading).toBe(true);
      const follower = await started(store.leadership({ retryMs: RETRY_MS }), stops);
      expect(follower.leading).toBe(false);
      await proxy.cut();
      await vi.waitFor(() => expect(cut.leading).toBe(false), { timeout: RETRY_MS * 10 });
      expect(lines.some((line) => /lost the connection that made this replica the leader/.test(line))).toBe(true);
      await vi.waitFor(() => expect(follower.leading).toBe(true), { timeout: RETRY_MS * 20 });
      await proxy.restore();
      await follower.stop();
      await vi.waitFor(() => expect(cut.leading).toBe(true), { timeout: RETRY_MS * 20 });
    } finally {
      await Promise.all(stops.map((leadership) => leadership.stop()));
    }
  });
});
