import { afterEach, describe, expect, it } from 'vitest';
import { type HostEvent, type NewHostEvent } from '../contracts';
import { InteractionRegistry } from './registry';
import { type RuntimeNotifier } from './registry-types';
import { type EventStore } from './store/event-store';
import { MemoryEventStore } from './store/memory-event-store';
import { withStorageHealth } from './store/storage-guarded-store';
import { StorageHealth, StorageUnavailableError } from './store/storage-health';
import { questionRequest } from './test-support/fixtures';
import { FullDiskStore } from './test-support/full-disk';

const stores: EventStore[] = [];
const registries: InteractionRegistry[] = [];
afterEach(async () => {
  for (const registry of registries.splice(0)) registry.stop();
  for (const store of stores.splice(0)) await store.close();
});

async function openOn(store: EventStore): Promise<InteractionRegistry> {
  stores.push(store);
  const registry = await InteractionRegistry.open({ store });
  registries.push(registry);
  return registry;
}

const delivered = (index: number): NewHostEvent => ({
  type: 'interaction.delivered',
  at: '2026-01-01T00:00:00.000Z',
  requestId: `r-${index}`,
});

describe('[R20.9] opening and closing', () => {
  it('[R20.9] opening folds the whole log, page after page, before the registry is handed out', async () => {
    const store = new MemoryEventStore();
    // More than two of the registry's fold pages.
    await store.append(Array.from({ length: 12_345 }, (_, index) => delivered(index)));
    const registry = await openOn(store);
    expect(registry.projection.seq).toBe(12_345);
    expect(registry.snapshot().seq).toBe(12_345);
  });

  it('[R20.9] settled() resolves only once every command already queued is in the log', async () => {
    const registry = await openOn(new MemoryEventStore());
    const requests = [questionRequest(), questionRequest(), questionRequest()];
    const acks = requests.map((request) => registry.announce(request, 'agent'));
    await registry.settled();
    for (const request of requests) expect(registry.projection.get(request.requestId)?.status).toBe('pending');
    await expect(Promise.all(acks)).resolves.toHaveLength(3);
  });
});

describe('[R20.5] a commit is told only once it is durable', () => {
  it('[R20.5][R12.6] an answer the disk refuses changes nothing and tells no one; once freed, it is taken', async () => {
    const disk = new FullDiskStore();
    const health = new StorageHealth({ dataDir: 'test', log: () => undefined });
    const registry = await openOn(withStorageHealth(disk, health));
    const resolved: Parameters<RuntimeNotifier['resolved']>[] = [];
    await registry.start({ resolved: (...args) => resolved.push(args), autoResolution: () => undefined });
    const heard: HostEvent[] = [];
    registry.subscribe((events) => heard.push(...events));
    const request = questionRequest();
    await registry.announce(request, 'agent');
    const seq = registry.projection.seq;
    const command = {
      requestId: request.requestId,
      clientResponseId: 'c-1',
      response: { action: 'accept' as const, content: { answers: { 'Which database?': 'SQLite' } } },
    };

    disk.full = true;
    await expect(registry.respond(command, { id: 'phone' })).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(registry.projection.seq).toBe(seq);
    expect(registry.projection.get(request.requestId)?.status).toBe('pending');
    expect(heard.filter((event) => event.type === 'interaction.resolved')).toEqual([]);
    expect(resolved).toEqual([]);

    disk.full = false;
    expect(await registry.respond(command, { id: 'phone' })).toMatchObject({ ok: true, status: 'accepted' });
    expect(heard.filter((event) => event.type === 'interaction.resolved')).toHaveLength(1);
    expect(resolved).toHaveLength(1);
  });
});
