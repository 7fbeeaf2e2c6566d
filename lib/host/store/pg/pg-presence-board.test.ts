import { describe, expect, it, vi } from 'vitest';
import { PresenceSharing } from '../../push/presence-sharing';
import { PresenceTracker } from '../../push/presence';
import { asAdmin } from '../test-support/pg-test-database';
import { setUpPgTestLogs } from '../test-support/pg-test-logs';

const logs = setUpPgTestLogs();

/** When the lease of `deviceId` through `replicaId` runs out, by the database's clock (ms since the epoch). */
async function leaseEnd(url: string, replicaId: string, deviceId: string): Promise<number | undefined> {
  const rows = await asAdmin<{ ends: string }>(
    `SELECT (extract(epoch FROM expires_at) * 1000)::bigint::text AS ends FROM askaway_presence
      WHERE replica_id = $1 AND device_id = $2`,
    [replicaId, deviceId],
    url,
  );
  return rows[0] ? Number(rows[0].ends) : undefined;
}

describe('[R20.64] the presence board: who looks through which replica', () => {
  it('[R20.64] a replica sees the devices looking through the others, not its own; publishing fewer takes the rest off', async () => {
    const store = await logs.open(await logs.freshLogUrl());
    const [a, b] = [store.presenceBoard('replica-a'), store.presenceBoard('replica-b')];
    await a.publish(['phone', 'tablet']);
    await b.publish(['laptop']);
    expect([...(await a.lookingElsewhere())]).toEqual(['laptop']);
    expect([...(await b.lookingElsewhere())].sort()).toEqual(['phone', 'tablet']);
    await a.publish(['tablet']);
    expect([...(await b.lookingElsewhere())]).toEqual(['tablet']);
    await a.withdraw();
    expect(await b.lookingElsewhere()).toEqual(new Set());
  });

  it('[R20.64] a lease not renewed runs out (a replica that died holds nothing back for long)', async () => {
    const store = await logs.open(await logs.freshLogUrl());
    const dead = store.presenceBoard('dead-replica', 300);
    const leader = store.presenceBoard('leader');
    await dead.publish(['phone']);
    expect(await leader.lookingElsewhere()).toEqual(new Set(['phone']));
    await vi.waitFor(async () => expect(await leader.lookingElsewhere()).toEqual(new Set()), { timeout: 3_000 });
  });

  it('[R20.64] a replica renews its leases while a device looks, and takes one off when the device stops looking', async () => {
    const url = await logs.freshLogUrl();
    const store = await logs.open(url);
    const board = store.presenceBoard('replica-a', 300);
    const tracker = new PresenceTracker();
    const errors: unknown[] = [];
    const sharing = new PresenceSharing(tracker, board, (error) => errors.push(error));
    sharing.start();
    tracker.set('phone', 'socket-1', true);
    await vi.waitFor(async () => expect(await leaseEnd(url, 'replica-a', 'phone')).toBeDefined());
    const first = (await leaseEnd(url, 'replica-a', 'phone')) ?? 0;
    // Renewed before it ran out: the lease now ends later than the first one did.
    await vi.waitFor(async () => expect(await leaseEnd(url, 'replica-a', 'phone')).toBeGreaterThan(first), {
      timeout: 3_000,
    });
    tracker.drop('phone', 'socket-1');
    await vi.waitFor(async () => expect(await leaseEnd(url, 'replica-a', 'phone')).toBeUndefined());
    tracker.set('tablet', 'socket-2', true);
    await vi.waitFor(async () => expect(await leaseEnd(url, 'replica-a', 'tablet')).toBeDefined());
    await sharing.stop();
    // Stopped: a device that starts looking now is not published.
    tracker.set('laptop', 'socket-3', true);
    await board.withdraw();
    expect(await leaseEnd(url, 'replica-a', 'tablet')).toBeUndefined();
    expect(await leaseEnd(url, 'replica-a', 'laptop')).toBeUndefined();
    expect(errors).toEqual([]);
  });
});
