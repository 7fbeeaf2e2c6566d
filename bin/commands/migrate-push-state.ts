import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { errorMessage } from '../../lib/contracts';
import { ADMIN_TOKEN_FILE, AGENT_TOKEN_FILE, readSecretFile } from '../../lib/host/data-dir';
import {
  ownerOf,
  PUSH_DB_FILE,
  type StoredSubscription,
  type StoredTopic,
} from '../../lib/host/push/subscription-store';
import { parseVapidJson, VAPID_FILE } from '../../lib/host/push/vapid-keys';
import { SECRET_NAMES } from '../../lib/host/store/pg/pg-team-secrets';
import { MigrateRefused } from './migrate-source';

export interface PersonalPushState {
  subscriptions: StoredSubscription[];
  topics: StoredTopic[];
  /** Rows for `askaway_secrets`: only those the data dir holds. */
  secrets: { name: string; value: string }[];
}

/**
 * What a personal hub keeps beside its log and a team hub keeps in its database (R20.65): the push subscriptions
 * and ntfy topics of `push.sqlite` (opened read-only), the agent and admin tokens and `vapid.json`. Read only;
 * a file that is missing is nothing to move, one that cannot be read refuses the move.
 */
export function readPersonalPushState(dataDir: string): PersonalPushState {
  const secrets: { name: string; value: string }[] = [];
  const token = readSecretFile(path.join(dataDir, AGENT_TOKEN_FILE));
  if (token !== undefined) secrets.push({ name: SECRET_NAMES.agentToken, value: token });
  const admin = readSecretFile(path.join(dataDir, ADMIN_TOKEN_FILE));
  if (admin !== undefined) secrets.push({ name: SECRET_NAMES.adminToken, value: admin });
  const vapidFile = path.join(dataDir, VAPID_FILE);
  if (fs.existsSync(vapidFile)) {
    const text = fs.readFileSync(vapidFile, 'utf8');
    if (!parseVapidJson(text))
      throw new MigrateRefused(`The push keys ${vapidFile} are unreadable: nothing was copied.`);
    secrets.push({ name: SECRET_NAMES.vapid, value: text.trim() });
  }
  return { ...readPushFile(path.join(dataDir, PUSH_DB_FILE)), secrets };
}

function readPushFile(file: string): Pick<PersonalPushState, 'subscriptions' | 'topics'> {
  if (!fs.existsSync(file)) return { subscriptions: [], topics: [] };
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new MigrateRefused(
      `Cannot read the push subscriptions in ${file} (${errorMessage(error)}): nothing was copied.`,
    );
  }
  try {
    const tables = new Set(
      db
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((row) => row.name),
    );
    const subscriptions = tables.has('push_subscriptions')
      ? db
          .prepare<[], { device_id: string; endpoint: string; p256dh: string; auth: string; updated_at: string }>(
            'SELECT * FROM push_subscriptions ORDER BY device_id',
          )
          .all()
          .map((row) => ({
            deviceId: row.device_id,
            endpoint: row.endpoint,
            keys: { p256dh: row.p256dh, auth: row.auth },
            updatedAt: row.updated_at,
          }))
      : [];
    const topics = tables.has('ntfy_topics')
      ? db
          .prepare<[], { owner: string; url: string; updated_at: string }>('SELECT * FROM ntfy_topics ORDER BY owner')
          .all()
          .map((row) => ({ owner: ownerOf(row.owner), url: row.url, updatedAt: row.updated_at }))
      : [];
    return { subscriptions, topics };
  } catch (error) {
    throw new MigrateRefused(
      `Cannot read the push subscriptions in ${file} (${errorMessage(error)}): nothing was copied.`,
    );
  } finally {
    db.close();
  }
}
