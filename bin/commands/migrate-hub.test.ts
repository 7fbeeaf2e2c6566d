import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { asAdmin } from '../../lib/host/store/test-support/pg-test-database';
import { schemaOf, setUpPgTestLogs } from '../../lib/host/store/test-support/pg-test-logs';
import { writeAnsweredQuestions } from '../../lib/host/test-support/answered-questions-log';
import { loadOrCreateAdminToken, loadOrCreateToken } from '../../lib/host/data-dir';
import { PUSH_DB_FILE, PushSubscriptionStore } from '../../lib/host/push/subscription-store';
import { makeSubscription } from '../../lib/host/push/test-helpers';
import { loadOrCreateVapidKeys } from '../../lib/host/push/vapid-keys';
import { startTestHost, tempDir } from '../../lib/host/test-support/test-host';
import { migratePersonalHub } from './migrate-hub';

const { freshLogUrl, open } = setUpPgTestLogs();

describe('[R20.34] the copy is read back and compared', () => {
  it('[R20.34] a copy that reads back unlike the personal log is an error that says not to start a hub on it', async () => {
    const dataDir = tempDir('migrate-differs-');
    await writeAnsweredQuestions(path.join(dataDir, 'askaway.db'), 2);
    const url = await freshLogUrl();
    await (await open(url)).close();
    // A database that changes what it stores: one event's body is not the one sent.
    const schema = schemaOf(url);
    await asAdmin(
      `CREATE FUNCTION ${schema}.tamper() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF NEW.seq = 2 THEN NEW.body := replace(NEW.body::text, 'bulk-0', 'bulk-X')::json; END IF;
           RETURN NEW;
         END $$`,
      [],
      url,
    );
    await asAdmin(
      `CREATE TRIGGER tamper BEFORE INSERT ON ${schema}.askaway_events FOR EACH ROW EXECUTE FUNCTION ${schema}.tamper()`,
      [],
      url,
    );
    await expect(migratePersonalHub({ dataDir, url })).rejects.toThrow(
      /The copy in .* does not match the personal log: it holds events that differ \(their digests do\)\. Do not start a team hub on it/,
    );
  });

  it('[R20.34] the same log without the tampering reads back alike', async () => {
    const dataDir = tempDir('migrate-alike-');
    await writeAnsweredQuestions(path.join(dataDir, 'askaway.db'), 2);
    const summary = await migratePersonalHub({ dataDir, url: await freshLogUrl() });
    expect(summary.log).toMatchObject({ events: 8, lastSeq: 8 });
    expect(summary.log.digest).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('[R20.65] push subscriptions, ntfy topics, tokens and push keys move too', () => {
  it('[R20.65] they land in the database, and a replica on another data dir uses the personal hub’s token and keys', async () => {
    const dataDir = tempDir('migrate-push-');
    await writeAnsweredQuestions(path.join(dataDir, 'askaway.db'), 1);
    const personal = new PushSubscriptionStore(path.join(dataDir, PUSH_DB_FILE));
    const phone = makeSubscription('https://push.example/phone').subscription;
    personal.upsert('phone', phone, new Date('2026-01-01T00:00:00.000Z'));
    personal.setNtfyTopic({ kind: 'host' }, 'http://192.168.1.20:8080/lan', new Date('2026-01-01T00:00:00.000Z'));
    personal.close();
    const token = loadOrCreateToken(dataDir);
    const adminToken = loadOrCreateAdminToken(dataDir);
    const vapid = await loadOrCreateVapidKeys(dataDir);
    const url = await freshLogUrl();
    // An empty team hub ran on the database before: its own tokens and keys give way to the personal hub's.
    const empty = await startTestHost({ databaseUrl: url, token: undefined });
    await empty.close();

    const summary = await migratePersonalHub({ dataDir, url });
    expect(summary.push).toEqual({ subscriptions: 1, topics: 1 });
    expect(summary.secrets).toEqual(['agent-token', 'admin-token', 'vapid-keys']);
    const store = await open(url);
    expect(await store.pushStore.list()).toEqual([
      { deviceId: 'phone', endpoint: phone.endpoint, keys: phone.keys, updatedAt: '2026-01-01T00:00:00.000Z' },
    ]);
    expect(await store.pushStore.ntfyTopic({ kind: 'host' })).toBe('http://192.168.1.20:8080/lan');
    // The personal hub dealt with its questions' notifications: the team's first leader sends none of them again.
    expect(await store.notifyLedger.notified(['bulk-0', 'never-asked'])).toEqual(new Set(['bulk-0']));

    const replica = await startTestHost({ databaseUrl: url, token: undefined });
    expect(replica.token).toBe(token);
    expect(replica.adminToken).toBe(adminToken);
    expect(replica.sharedPush?.vapid).toEqual(vapid);
    await replica.close();
  });
});
