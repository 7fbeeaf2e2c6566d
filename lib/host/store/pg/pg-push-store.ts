import { type PushSubscriptionJson } from '../../../contracts';
import { type PushStore } from '../../push/push-store';
import {
  ownerKey,
  ownerOf,
  type StoredSubscription,
  type StoredTopic,
  type TopicOwner,
} from '../../push/subscription-store';
import { type PgDatabase } from './pg-database';

interface SubscriptionRow {
  device_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  updated_at: string;
}

/**
 * A team hub's Web Push subscriptions and ntfy topics (R20.60), in `askaway_push_subscriptions` and
 * `askaway_ntfy_topics`: a phone subscribed through any replica is sent to by whichever one leads.
 */
export class PgPushStore implements PushStore {
  constructor(private readonly db: PgDatabase) {}

  async upsert(deviceId: string, subscription: PushSubscriptionJson, now: Date): Promise<void> {
    await this.db.withClient('write a push subscription to', async (client) => {
      await client.query('BEGIN');
      await client.query('DELETE FROM askaway_push_subscriptions WHERE endpoint = $1 AND device_id <> $2', [
        subscription.endpoint,
        deviceId,
      ]);
      await client.query(
        `INSERT INTO askaway_push_subscriptions (device_id, endpoint, p256dh, auth, updated_at)
           VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (device_id) DO UPDATE SET endpoint = excluded.endpoint, p256dh = excluded.p256dh,
             auth = excluded.auth, updated_at = excluded.updated_at`,
        [deviceId, subscription.endpoint, subscription.keys.p256dh, subscription.keys.auth, now.toISOString()],
      );
      await client.query('COMMIT');
    });
  }

  async get(deviceId: string): Promise<StoredSubscription | undefined> {
    const rows = await this.db.query<SubscriptionRow>(
      'read push subscriptions from',
      'SELECT * FROM askaway_push_subscriptions WHERE device_id = $1',
      [deviceId],
    );
    return rows[0] && fromRow(rows[0]);
  }

  async list(): Promise<StoredSubscription[]> {
    const rows = await this.db.query<SubscriptionRow>(
      'read push subscriptions from',
      'SELECT * FROM askaway_push_subscriptions ORDER BY device_id COLLATE "C"',
    );
    return rows.map(fromRow);
  }

  async removeDevice(deviceId: string): Promise<boolean> {
    return this.changed('remove a push subscription from', 'askaway_push_subscriptions', 'device_id', deviceId);
  }

  async removeEndpoint(endpoint: string): Promise<boolean> {
    return this.changed('remove a push subscription from', 'askaway_push_subscriptions', 'endpoint', endpoint);
  }

  async ntfyTopics(): Promise<StoredTopic[]> {
    const rows = await this.db.query<{ owner: string; url: string; updated_at: string }>(
      'read ntfy topics from',
      `SELECT owner, url, updated_at FROM askaway_ntfy_topics ORDER BY owner <> $1, owner COLLATE "C"`,
      [ownerKey({ kind: 'host' })],
    );
    return rows.map((row) => ({ owner: ownerOf(row.owner), url: row.url, updatedAt: row.updated_at }));
  }

  async ntfyTopic(owner: TopicOwner): Promise<string | undefined> {
    const rows = await this.db.query<{ url: string }>(
      'read ntfy topics from',
      'SELECT url FROM askaway_ntfy_topics WHERE owner = $1',
      [ownerKey(owner)],
    );
    return rows[0]?.url;
  }

  async setNtfyTopic(owner: TopicOwner, url: string | null, now: Date): Promise<boolean> {
    if (url === null) return this.changed('clear an ntfy topic in', 'askaway_ntfy_topics', 'owner', ownerKey(owner));
    await this.db.query(
      'write an ntfy topic to',
      `INSERT INTO askaway_ntfy_topics (owner, url, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (owner) DO UPDATE SET url = excluded.url, updated_at = excluded.updated_at`,
      [ownerKey(owner), url, now.toISOString()],
    );
    return true;
  }

  /** The log's store closes the pool. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  private async changed(doing: string, table: string, column: string, value: string): Promise<boolean> {
    const rows = await this.db.query<{ one: number }>(
      doing,
      `DELETE FROM ${table} WHERE ${column} = $1 RETURNING 1 AS one`,
      [value],
    );
    return rows.length > 0;
  }
}

function fromRow(row: SubscriptionRow): StoredSubscription {
  return {
    deviceId: row.device_id,
    endpoint: row.endpoint,
    keys: { p256dh: row.p256dh, auth: row.auth },
    updatedAt: row.updated_at,
  };
}
