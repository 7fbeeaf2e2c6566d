import { parseVapidJson, type VapidKeys } from '../../push/vapid-keys';
import { type PgDatabase } from './pg-database';

/** What every replica of a team hub must share (R20.61). */
export interface TeamSecrets {
  agentToken: string;
  adminToken: string;
  vapid: VapidKeys;
}

/** The rows of `askaway_secrets`, by what they hold. */
export const SECRET_NAMES = { agentToken: 'agent-token', adminToken: 'admin-token', vapid: 'vapid-keys' } as const;

/** A secret the database holds in a shape this build cannot use: the start stops and the row stays. */
export class UnreadableSecretError extends Error {}

/**
 * The team hub's tokens and VAPID keys in `askaway_secrets`. The first replica to start offers its own (the data
 * dir's, or new ones) and they are written in one transaction, each only where none is yet; every replica,
 * that one included, then uses what the database holds. Two replicas starting at once: one's insert waits for
 * the other's commit, then finds the row and takes it.
 */
export class PgTeamSecrets {
  constructor(private readonly db: PgDatabase) {}

  /** The team's secrets; `offered` fills in those the database does not hold yet. `created`: which this call wrote. */
  async adopt(offered: TeamSecrets): Promise<{ secrets: TeamSecrets; created: (keyof TeamSecrets)[] }> {
    const values: Record<keyof TeamSecrets, string> = {
      agentToken: offered.agentToken,
      adminToken: offered.adminToken,
      vapid: JSON.stringify({ ...offered.vapid, createdAt: new Date().toISOString() }),
    };
    const keys = Object.keys(SECRET_NAMES) as (keyof TeamSecrets)[];
    const { inserted, stored } = await this.db.withClient('read the team secrets in', async (client) => {
      await client.query('BEGIN');
      const written = await client.query<{ name: string }>(
        `INSERT INTO askaway_secrets (name, value) SELECT * FROM unnest($1::text[], $2::text[])
           ON CONFLICT (name) DO NOTHING RETURNING name`,
        [keys.map((key) => SECRET_NAMES[key]), keys.map((key) => values[key])],
      );
      const read = await client.query<{ name: string; value: string }>(
        'SELECT name, value FROM askaway_secrets WHERE name = ANY($1::text[])',
        [keys.map((key) => SECRET_NAMES[key])],
      );
      await client.query('COMMIT');
      return { inserted: written.rows.map((row) => row.name), stored: read.rows };
    });
    const valueOf = (key: keyof TeamSecrets): string => {
      const value = stored.find((row) => row.name === SECRET_NAMES[key])?.value.trim();
      if (!value) throw new UnreadableSecretError(`holds no ${SECRET_NAMES[key]} in askaway_secrets`);
      return value;
    };
    const vapid = parseVapidJson(valueOf('vapid'));
    if (!vapid)
      throw new UnreadableSecretError(`holds VAPID keys this build cannot read (askaway_secrets, vapid-keys)`);
    return {
      secrets: { agentToken: valueOf('agentToken'), adminToken: valueOf('adminToken'), vapid },
      created: keys.filter((key) => inserted.includes(SECRET_NAMES[key])),
    };
  }
}
