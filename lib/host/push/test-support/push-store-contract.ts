import { afterEach, describe, expect, it } from 'vitest';
import { type PushStore } from '../push-store';
import { makeSubscription } from '../test-helpers';

const now = new Date('2026-01-01T00:00:00.000Z');
const later = new Date('2026-01-01T00:05:00.000Z');

/**
 * What every PushStore (a personal hub's push.sqlite, a team hub's database) must do: the push service relies on
 * this and nothing else. `open` gives a new, empty store each time; the suite closes what it opened.
 */
export function describePushStoreContract(name: string, open: () => Promise<PushStore>): void {
  describe(`[R20.60] PushStore contract: ${name}`, () => {
    const opened: PushStore[] = [];
    const fresh = async () => {
      const store = await open();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    it('[R20.60] keeps one subscription per device; an endpoint moves to the device that sent it last', async () => {
      const store = await fresh();
      const first = makeSubscription('https://push.example/a').subscription;
      const second = makeSubscription('https://push.example/b').subscription;
      await store.upsert('phone', first, now);
      await store.upsert('phone', second, later);
      await store.upsert('tablet', first, later);
      expect(await store.get('phone')).toEqual({
        deviceId: 'phone',
        endpoint: second.endpoint,
        keys: second.keys,
        updatedAt: later.toISOString(),
      });
      await store.upsert('laptop', second, later);
      expect((await store.list()).map((entry) => [entry.deviceId, entry.endpoint])).toEqual([
        ['laptop', second.endpoint],
        ['tablet', first.endpoint],
      ]);
      expect(await store.get('phone')).toBeUndefined();
    });

    it('[R20.60] removes a device, or only the endpoint that expired', async () => {
      const store = await fresh();
      await store.upsert('phone', makeSubscription('https://push.example/a').subscription, now);
      await store.upsert('tablet', makeSubscription('https://push.example/b').subscription, now);
      expect(await store.removeEndpoint('https://push.example/old')).toBe(false);
      expect(await store.removeEndpoint('https://push.example/a')).toBe(true);
      expect(await store.removeDevice('tablet')).toBe(true);
      expect(await store.removeDevice('tablet')).toBe(false);
      expect(await store.list()).toEqual([]);
    });

    it("[R20.60] keeps one ntfy topic per owner, the host's first, and clears one", async () => {
      const store = await fresh();
      await store.setNtfyTopic({ kind: 'device', deviceId: 'b-phone' }, 'https://ntfy.sh/b', now);
      await store.setNtfyTopic({ kind: 'device', deviceId: 'a-phone' }, 'https://ntfy.sh/a', now);
      await store.setNtfyTopic({ kind: 'host' }, 'http://192.168.1.20/lan', now);
      await store.setNtfyTopic({ kind: 'device', deviceId: 'a-phone' }, 'https://ntfy.sh/a2', later);
      expect(await store.ntfyTopics()).toEqual([
        { owner: { kind: 'host' }, url: 'http://192.168.1.20/lan', updatedAt: now.toISOString() },
        { owner: { kind: 'device', deviceId: 'a-phone' }, url: 'https://ntfy.sh/a2', updatedAt: later.toISOString() },
        { owner: { kind: 'device', deviceId: 'b-phone' }, url: 'https://ntfy.sh/b', updatedAt: now.toISOString() },
      ]);
      expect(await store.ntfyTopic({ kind: 'device', deviceId: 'a-phone' })).toBe('https://ntfy.sh/a2');
      expect(await store.setNtfyTopic({ kind: 'host' }, null, later)).toBe(true);
      expect(await store.setNtfyTopic({ kind: 'host' }, null, later)).toBe(false);
      expect(await store.ntfyTopic({ kind: 'host' })).toBeUndefined();
    });
  });
}
