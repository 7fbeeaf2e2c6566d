import { type MachinePresenceBoard } from '../../machine-presence-sharing';
import { type PgDatabase } from './pg-database';

/** How long a replica's count of a machine's agents holds without being renewed. */
export const MACHINE_PRESENCE_LEASE_MS = 15_000;

/**
 * `askaway_machine_presence` (R20.66): per replica, how many runtime connections each machine has open to it, on a
 * lease the replica renews every third of it. Leases run on the database's clock; a replica that dies stops
 * renewing, and its counts run out with the lease while its agents reconnect elsewhere.
 */
export class PgMachinePresence implements MachinePresenceBoard {
  readonly renewEveryMs: number;

  constructor(
    private readonly db: PgDatabase,
    private readonly replicaId: string,
    private readonly leaseMs = MACHINE_PRESENCE_LEASE_MS,
  ) {
    this.renewEveryMs = Math.max(50, Math.floor(leaseMs / 3));
  }

  async publish(connections: ReadonlyMap<string, number>): Promise<void> {
    if (this.db.isClosed) return;
    const machineIds = [...connections.keys()];
    await this.db.withClient('share which agents are connected in', async (client) => {
      await client.query('BEGIN');
      await client.query(
        'DELETE FROM askaway_machine_presence WHERE replica_id = $1 AND NOT (machine_id = ANY($2::text[]))',
        [this.replicaId, machineIds],
      );
      if (machineIds.length > 0)
        await client.query(
          `INSERT INTO askaway_machine_presence (replica_id, machine_id, agents, expires_at)
             SELECT $1, machine_id, agents, now() + $4 * interval '1 millisecond'
             FROM unnest($2::text[], $3::int[]) AS t(machine_id, agents)
           ON CONFLICT (replica_id, machine_id) DO UPDATE SET agents = excluded.agents, expires_at = excluded.expires_at`,
          [this.replicaId, machineIds, [...connections.values()], this.leaseMs],
        );
      // A dead replica's rows go once their leases have run out, so the table holds only live connections.
      await client.query('DELETE FROM askaway_machine_presence WHERE expires_at < now()');
      await client.query('COMMIT');
    });
  }

  async elsewhere(): Promise<Map<string, number>> {
    const rows = await this.db.query<{ machine_id: string; agents: string }>(
      'read which agents are connected in',
      `SELECT machine_id, sum(agents) AS agents FROM askaway_machine_presence
       WHERE replica_id <> $1 AND expires_at > now() GROUP BY machine_id`,
      [this.replicaId],
    );
    return new Map(rows.map((row) => [row.machine_id, Number(row.agents)]));
  }

  async withdraw(): Promise<void> {
    if (this.db.isClosed) return;
    await this.db.query(
      'withdraw which agents are connected from',
      'DELETE FROM askaway_machine_presence WHERE replica_id = $1',
      [this.replicaId],
    );
  }
}
