import Database from 'better-sqlite3';
import { errorMessage, type PushSubscriptionJson } from '../../contracts';
import { HostStartError } from '../errors';
import { createOwnerOnly, tightenToOwner } from '../store/owner-only';

export const PUSH_DB_FILE = 'push.sqlite';

/** One device's Web Push subscription. */
export interface StoredSubscription {
  deviceId: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  updatedAt: string;
}

/**
 * Subscriptions (one per device) and the host-wide ntfy topic, durable across restarts.
 * Its own SQLite file: the event log holds its database exclusively, and push state
 * is not part of the interaction history.
 */
export class PushSubscriptionStore {
  private readonly db: Database.Database;
  /** Each statement is prepared once: `list` and `ntfyTopicUrl` run for every new interaction. */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(file: string) {
    try {
      // Subscriptions hold push endpoints and keys: the owner's only (R12.9); the WAL inherits the mode.
      createOwnerOnly(file);
      this.db = new Database(file, { timeout: 1_000 });
      this.db.pragma('journal_mode = WAL');
      tightenToOwner(file, `${file}-wal`, `${file}-shm`);
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS push_subscriptions (
          device_id TEXT PRIMARY KEY,
          endpoint TEXT NOT NULL UNIQUE,
          p256dh TEXT NOT NULL,
          auth TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS push_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      `);
    } catch (error) {
      throw new HostStartError(`Cannot open the push subscription store ${file}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
  }

  /** Replaces the device's subscription; an endpoint moves to the device that last sent it. */
  upsert(deviceId: string, subscription: PushSubscriptionJson, now: Date): void {
    this.db.transaction(() => {
      this.prepared('DELETE FROM push_subscriptions WHERE endpoint = ? AND device_id <> ?').run(
        subscription.endpoint,
        deviceId,
      );
      this.prepared(
        `INSERT INTO push_subscriptions (device_id, endpoint, p256dh, auth, updated_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (device_id) DO UPDATE SET endpoint = excluded.endpoint, p256dh = excluded.p256dh,
             auth = excluded.auth, updated_at = excluded.updated_at`,
      ).run(deviceId, subscription.endpoint, subscription.keys.p256dh, subscription.keys.auth, now.toISOString());
    })();
  }

  get(deviceId: string): StoredSubscription | undefined {
    const row = this.prepared<[string], Row>('SELECT * FROM push_subscriptions WHERE device_id = ?').get(deviceId);
    return row && fromRow(row);
  }

  list(): StoredSubscription[] {
    return this.prepared<[], Row>('SELECT * FROM push_subscriptions ORDER BY device_id').all().map(fromRow);
  }

  removeDevice(deviceId: string): boolean {
    return this.prepared('DELETE FROM push_subscriptions WHERE device_id = ?').run(deviceId).changes > 0;
  }

  /** Only removes the endpoint that expired, not a newer one the device sent meanwhile. */
  removeEndpoint(endpoint: string): boolean {
    return this.prepared('DELETE FROM push_subscriptions WHERE endpoint = ?').run(endpoint).changes > 0;
  }

  ntfyTopicUrl(): string | null {
    const row = this.prepared<[string], { value: string }>('SELECT value FROM push_settings WHERE key = ?').get(
      'ntfyTopicUrl',
    );
    return row?.value ?? null;
  }

  setNtfyTopicUrl(url: string | null): void {
    if (url === null) this.prepared('DELETE FROM push_settings WHERE key = ?').run('ntfyTopicUrl');
    else
      this.prepared(
        'INSERT INTO push_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ).run('ntfyTopicUrl', url);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private prepared<Params extends unknown[] = unknown[], Result = unknown>(
    sql: string,
  ): Database.Statement<Params, Result> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as Database.Statement<Params, Result>;
  }
}

interface Row {
  device_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  updated_at: string;
}

function fromRow(row: Row): StoredSubscription {
  return {
    deviceId: row.device_id,
    endpoint: row.endpoint,
    keys: { p256dh: row.p256dh, auth: row.auth },
    updatedAt: row.updated_at,
  };
}
