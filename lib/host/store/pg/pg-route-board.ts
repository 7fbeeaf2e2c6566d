import { type RouteBoard } from '../../route-sharing';
import { type PgDatabase } from './pg-database';

/** How long a replica's word that it routes a question holds without being renewed. */
export const ROUTE_LEASE_MS = 15_000;

/**
 * `askaway_routes` (R20.67): per replica, the pending questions whose agents are connected to it, on a lease the
 * replica renews every third of it (the database's clock). A replica that dies stops renewing; its rows run out.
 */
export class PgRouteBoard implements RouteBoard {
  readonly renewEveryMs: number;

  constructor(
    private readonly db: PgDatabase,
    private readonly replicaId: string,
    private readonly leaseMs = ROUTE_LEASE_MS,
  ) {
    this.renewEveryMs = Math.max(50, Math.floor(leaseMs / 3));
  }

  async publish(requestIds: readonly string[]): Promise<void> {
    if (this.db.isClosed) return;
    await this.db.withClient('share which questions are routed in', async (client) => {
      await client.query('BEGIN');
      await client.query('DELETE FROM askaway_routes WHERE replica_id = $1 AND NOT (request_id = ANY($2::text[]))', [
        this.replicaId,
        [...requestIds],
      ]);
      if (requestIds.length > 0)
        await client.query(
          `INSERT INTO askaway_routes (replica_id, request_id, expires_at)
             SELECT $1, unnest($2::text[]), now() + $3 * interval '1 millisecond'
           ON CONFLICT (replica_id, request_id) DO UPDATE SET expires_at = excluded.expires_at`,
          [this.replicaId, [...requestIds], this.leaseMs],
        );
      await client.query('DELETE FROM askaway_routes WHERE expires_at < now()');
      await client.query('COMMIT');
    });
  }

  async routedAnywhere(): Promise<Set<string>> {
    const rows = await this.db.query<{ request_id: string }>(
      'read which questions are routed in',
      'SELECT DISTINCT request_id FROM askaway_routes WHERE expires_at > now()',
    );
    return new Set(rows.map((row) => row.request_id));
  }

  async withdraw(): Promise<void> {
    if (this.db.isClosed) return;
    await this.db.query(
      'withdraw which questions are routed from',
      'DELETE FROM askaway_routes WHERE replica_id = $1',
      [this.replicaId],
    );
  }
}
