import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HostStartError } from '../errors';
import { PushSubscriptionStore } from './subscription-store';
import { makeSubscription } from './test-helpers';
import { loadOrCreateVapidKeys, VAPID_FILE } from './vapid-keys';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askaway-vapid-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('VAPID keys', () => {
  it('[R14.1] are created on first start in <dataDir>/vapid.json, readable only by the owner', async () => {
    const dir = tempDir();
    const keys = await loadOrCreateVapidKeys(dir);
    expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(65);
    const file = path.join(dir, VAPID_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual([VAPID_FILE]);
  });

  it('[R14.1] are kept across restarts, also when two starts race', async () => {
    const dir = tempDir();
    const [a, b] = await Promise.all([loadOrCreateVapidKeys(dir), loadOrCreateVapidKeys(dir)]);
    expect(b).toEqual(a);
    await expect(loadOrCreateVapidKeys(dir)).resolves.toEqual(a);
  });

  it('[R14.1] an unreadable key file stops the start and is left untouched', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, VAPID_FILE), '{"publicKey": 1');
    await expect(loadOrCreateVapidKeys(dir)).rejects.toThrow(HostStartError);
    await expect(loadOrCreateVapidKeys(dir)).rejects.toThrow(/move it aside/);
    expect(fs.readFileSync(path.join(dir, VAPID_FILE), 'utf8')).toBe('{"publicKey": 1');
  });
});

describe('subscription store', () => {
  it('[R14.1] keeps one subscription per device and the ntfy topic of each owner across a reopen', () => {
    const file = path.join(tempDir(), 'push.sqlite');
    const first = makeSubscription('https://push.example/a');
    const second = makeSubscription('https://push.example/b');
    const store = new PushSubscriptionStore(file);
    store.upsert('phone', first.subscription, new Date());
    store.upsert('phone', second.subscription, new Date());
    store.upsert('tablet', first.subscription, new Date());
    store.setNtfyTopic({ kind: 'device', deviceId: 'phone' }, 'https://ntfy.sh/secret-topic', new Date());
    store.setNtfyTopic({ kind: 'host' }, 'http://192.168.1.5/lan', new Date());
    store.close();

    const reopened = new PushSubscriptionStore(file);
    expect(reopened.list().map((entry) => [entry.deviceId, entry.endpoint])).toEqual([
      ['phone', 'https://push.example/b'],
      ['tablet', 'https://push.example/a'],
    ]);
    expect(reopened.get('phone')?.keys).toEqual(second.subscription.keys);
    expect(reopened.ntfyTopics().map((topic) => [topic.owner, topic.url])).toEqual([
      [{ kind: 'host' }, 'http://192.168.1.5/lan'],
      [{ kind: 'device', deviceId: 'phone' }, 'https://ntfy.sh/secret-topic'],
    ]);
    reopened.close();
  });

  it('[R14.1] an endpoint that moved to another device leaves the old device unsubscribed', () => {
    const store = new PushSubscriptionStore(path.join(tempDir(), 'push.sqlite'));
    const keys = makeSubscription('https://push.example/same');
    store.upsert('old-device-id', keys.subscription, new Date());
    store.upsert('new-device-id', keys.subscription, new Date());
    expect(store.list().map((entry) => entry.deviceId)).toEqual(['new-device-id']);
    expect(store.removeEndpoint('https://push.example/same')).toBe(true);
    expect(store.list()).toEqual([]);
    store.close();
  });
});
