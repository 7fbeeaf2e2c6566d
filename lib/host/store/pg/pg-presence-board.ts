import { type PresenceBoard } from '../../push/shared-push-state';
import { type PgDatabase } from './pg-database';

/** How long a replica's "this device looks" holds without being renewed. */
export const PRESENCE_LEASE_MS = 15_000;

/**
 * `askaway_presence` (R20.64): one row per device looking through a replica, with a lease the replica renews every
 * third of it while the device looks. Leases run on the database's clock, so replicas' clocks do not matter. The
 * cost is one statement per replica per renewal while any of its devices looks, one when a device starts or stops
 * looking, and one read by the leader per notification it is about to send.
 */
export class PgPresenceBoard implements PresenceBoard {
  readonly renewEveryMs: number;

  constructor(
    private readonly db: PgDatabase,
    private readonly replicaId: string,
    private readonly leaseMs = PRESENCE_LEASE_MS,
  ) {
    this.renewEveryMs = Math.max(50, Math.floor(leaseMs / 3));
  }

  async publish(deviceIds: readonly string[]): Promise<void> {
    // The replica has closed its log (and withdrawn its entries): its connections' last goodbyes have nowhere to go.
    if (this.db.isClosed) return;
    await this.db.withClient('share who is looking in', async (client) => {
      await client.query('BEGIN');
      await client.query('DELETE FROM askaway_presence WHERE replica_id = $1 AND NOT (device_id = ANY($2::text[]))', [
        this.replicaId,
        [...deviceIds],
      ]);
      if (deviceIds.length > 0) {
        await client.query(
          `INSERT INTO askaway_presence (replica_id, device_id, expires_at)
             SELECT $1, unnest($2::text[]), now() + $3 * interval '1 millisecond'
             ON CONFLICT (replica_id, device_id) DO UPDATE SET expires_at = excluded.expires_at`,
          [this.replicaId, [...deviceIds], this.leaseMs],
        );
      }
      // Leases of replicas that died run out here, so the table holds no more than the devices looking.
      await client.query('DELETE FROM askaway_presence WHERE expires_at < now()');
      await client.query('COMMIT');
    });
  }

  async lookingElsewhere(): Promise<Set<string>> {
    const rows = await this.db.query<{ device_id: string }>(
      'read who is looking in',
      'SELECT DISTINCT device_id FROM askaway_presence WHERE replica_id <> $1 AND expires_at > now()',
      [this.replicaId],
    );
    return new Set(rows.map((row) => row.device_id));
  }

  async withdraw(): Promise<void> {
    if (this.db.isClosed) return;
    await this.db.query('withdraw who is looking from', 'DELETE FROM askaway_presence WHERE replica_id = $1', [
      this.replicaId,
    ]);
  }
}
