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

/** Who set an ntfy topic (R12.15): the owner on the host's CLI, or one device, whose topic goes with it. */
export type TopicOwner = { kind: 'host' } | { kind: 'device'; deviceId: string };

export interface StoredTopic {
  owner: TopicOwner;
  url: string;
  updatedAt: string;
}

const HOST_OWNER = 'host';
export const ownerKey = (owner: TopicOwner): string =>
  owner.kind === 'host' ? HOST_OWNER : `device:${owner.deviceId}`;
export const ownerOf = (key: string): TopicOwner =>
  key.startsWith('device:') ? { kind: 'device', deviceId: key.slice('device:'.length) } : { kind: 'host' };

/**
 * Subscriptions (one per device) and ntfy topics (one per owner), durable across restarts.
 * Its own SQLite file: the event log holds its database exclusively, and push state
 * is not part of the interaction history.
 */
export class PushSubscriptionStore {
  private readonly db: Database.Database;
  /** Each statement is prepared once: `list` and `ntfyTopics` run for every new interaction. */
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
        CREATE TABLE IF NOT EXISTS ntfy_topics (
          owner TEXT PRIMARY KEY,
          url TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
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

  /** Every topic, the host's first: read for each new question, so a topic set on the CLI counts at once. */
  ntfyTopics(): StoredTopic[] {
    return this.prepared<[string], TopicRow>('SELECT * FROM ntfy_topics ORDER BY owner <> ?, owner')
      .all(HOST_OWNER)
      .map((row) => ({ owner: ownerOf(row.owner), url: row.url, updatedAt: row.updated_at }));
  }

  ntfyTopic(owner: TopicOwner): string | undefined {
    return this.prepared<[string], { url: string }>('SELECT url FROM ntfy_topics WHERE owner = ?').get(ownerKey(owner))
      ?.url;
  }

  /** Sets or (null) clears one owner's topic; true when something changed. */
  setNtfyTopic(owner: TopicOwner, url: string | null, now: Date): boolean {
    if (url === null) return this.prepared('DELETE FROM ntfy_topics WHERE owner = ?').run(ownerKey(owner)).changes > 0;
    this.prepared(
      `INSERT INTO ntfy_topics (owner, url, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (owner) DO UPDATE SET url = excluded.url, updated_at = excluded.updated_at`,
    ).run(ownerKey(owner), url, now.toISOString());
    return true;
  }

  /**
   * The one host-wide topic of older hosts, which any device could set and nobody owned: taken out of
   * the store (once) for the caller to adopt or drop.
   */
  takeLegacyNtfyTopic(): string | undefined {
    return this.db.transaction(() => {
      const row = this.prepared<[string], { value: string }>('SELECT value FROM push_settings WHERE key = ?').get(
        LEGACY_TOPIC_KEY,
      );
      if (row) this.prepared('DELETE FROM push_settings WHERE key = ?').run(LEGACY_TOPIC_KEY);
      return row?.value;
    })();
  }

  /** As an older host stored its topic (tests of the migration). */
  putLegacyNtfyTopic(url: string): void {
    this.prepared('INSERT OR REPLACE INTO push_settings (key, value) VALUES (?, ?)').run(LEGACY_TOPIC_KEY, url);
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

const LEGACY_TOPIC_KEY = 'ntfyTopicUrl';

interface TopicRow {
  owner: string;
  url: string;
  updated_at: string;
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
