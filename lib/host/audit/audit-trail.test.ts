import { afterEach, describe, expect, it } from 'vitest';
import { type HostEvent, type InteractionResponse } from '../../contracts';
import { HostProjection } from '../projection';
import { InteractionRegistry } from '../registry';
import { questionRequest } from '../test-support/fixtures';
import { FullDiskStore } from '../test-support/full-disk';
import { AuditTrail } from './audit-trail';
import { respondAudit } from './respond-audit';

const stores: FullDiskStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

const ACCEPT: InteractionResponse = {
  action: 'accept',
  content: { answers: { 'Which database?': 'SQLite', 'Which extras?': 'Metrics' } },
};

async function registryWithQuestion() {
  const store = new FullDiskStore();
  stores.push(store);
  const registry = await InteractionRegistry.open({ store });
  const request = questionRequest();
  expect(await registry.announce(request, 'socket-1')).toMatchObject({ ok: true, status: 'pending' });
  return { store, registry, requestId: request.requestId };
}

const audits = (events: readonly HostEvent[]) => events.filter((event) => event.type === 'audit.recorded');

describe('[R21.64] an answer and its record are one commit', () => {
  it('[R21.64] a failed append records neither the answer nor its record; the next one records both', async () => {
    const { store, registry, requestId } = await registryWithQuestion();
    const trail = new AuditTrail(registry.projection);
    const audit = () => respondAudit(trail, { deviceId: 'phone-1', address: '198.51.100.4', via: 'app' }, ACCEPT);
    const device = { id: 'phone-1', label: 'Phone' };
    const before = await store.readSince(0, 100);

    store.full = true;
    await expect(
      registry.respond({ requestId, clientResponseId: 'c1', response: ACCEPT }, device, audit()),
    ).rejects.toThrow(/full/);
    expect(await store.readSince(0, 100)).toEqual(before);
    expect(registry.projection.get(requestId)?.status).toBe('pending');
    expect(registry.projection.audit.size).toBe(0);

    store.full = false;
    expect(
      await registry.respond({ requestId, clientResponseId: 'c2', response: ACCEPT }, device, audit()),
    ).toMatchObject({ ok: true, status: 'accepted' });
    const after = (await store.readSince(0, 100)).slice(before.length);
    expect(after.map((event) => event.type)).toEqual(['interaction.resolved', 'audit.recorded']);
    expect(audits(after)).toEqual([
      expect.objectContaining({
        at: after[0]?.at,
        entry: {
          action: 'answer',
          outcome: 'done',
          actor: { deviceId: 'phone-1', address: '198.51.100.4', via: 'app' },
          target: { kind: 'question', id: requestId, name: 'AskUserQuestion' },
        },
      }),
    ]);
    expect(registry.projection.audit.size).toBe(1);
  });
});

describe('[R21.62] a refused answer', () => {
  it('[R21.62] is answered as unknown and recorded; a record the disk refuses changes neither the reply nor the log', async () => {
    const { store, registry, requestId } = await registryWithQuestion();
    const at = '2026-12-07T10:00:00.000Z';
    // A member's phone: the hub's own agent's question is the owner's, not hers.
    await registry.recordPersonEvents(() => [
      {
        type: 'person.added',
        at,
        person: { id: 'p-ana', issuer: 'https://idp.example', subject: 's1', role: 'member' },
      },
    ]);
    await registry.recordDeviceEvents(() => [
      {
        type: 'device.paired',
        at,
        device: { id: 'phone-ana', name: 'Ana’s phone', platform: 'Test', personId: 'p-ana' },
      },
    ]);
    const trail = new AuditTrail(registry.projection);
    const attempt = (clientResponseId: string) =>
      registry.respond(
        { requestId, clientResponseId, response: ACCEPT },
        { id: 'phone-ana', label: 'Ana’s phone' },
        respondAudit(trail, { deviceId: 'phone-ana', via: 'app' }, ACCEPT),
      );
    const unknown = { ok: false, error: { code: 'unknown-interaction', message: `No interaction ${requestId}` } };
    const before = await store.readSince(0, 100);

    store.full = true;
    expect(await attempt('r1')).toEqual(unknown);
    expect(await store.readSince(0, 100)).toEqual(before);

    store.full = false;
    expect(await attempt('r2')).toEqual(unknown);
    const after = (await store.readSince(0, 100)).slice(before.length);
    expect(after).toEqual([
      expect.objectContaining({
        type: 'audit.recorded',
        entry: expect.objectContaining({
          action: 'answer',
          outcome: 'refused',
          actor: { personId: 'p-ana', personName: 's1', deviceId: 'phone-ana', deviceName: 'Ana’s phone', via: 'app' },
          target: expect.objectContaining({ kind: 'question', id: requestId }),
        }),
      }),
    ]);
    expect(registry.projection.get(requestId)?.status).toBe('pending');
  });
});

describe('[R21.63] the refusal bound', () => {
  it('[R21.63] five refused attempts a minute per device are recorded; the next record counts the ones left out', () => {
    let now = Date.parse('2026-12-07T10:00:00Z');
    const trail = new AuditTrail(new HostProjection(), { now: () => now });
    const refuse = (deviceId: string) =>
      trail.refused(
        deviceId,
        { action: 'answer', actor: { deviceId, via: 'app' }, target: { kind: 'question', id: 'q1' } },
        new Date(now).toISOString(),
      );
    const recorded = Array.from({ length: 12 }, () => refuse('phone-a')).flat();
    expect(recorded).toHaveLength(5);
    expect(recorded.every((event) => event.entry.detail === undefined)).toBe(true);
    // Another device has its own share.
    expect(refuse('phone-b')).toHaveLength(1);
    now += 59_000;
    expect(refuse('phone-a')).toEqual([]);
    now += 1_000;
    expect(refuse('phone-a')).toEqual([
      expect.objectContaining({
        entry: expect.objectContaining({ detail: '8 more refused attempt(s) from this device not recorded' }),
      }),
    ]);
    expect(refuse('phone-a')[0]?.entry.detail).toBeUndefined();
  });

  it('[R21.60] names that the entry’s schema would refuse are made printable and cut, never written as they are', () => {
    const trail = new AuditTrail(new HostProjection());
    const [event] = trail.record(
      {
        action: 'pairing',
        outcome: 'done',
        actor: { via: 'app', address: '2001:db8::1' },
        target: trail.deviceTarget('d1', `bad\u0007name${'x'.repeat(400)}`),
        detail: 'y'.repeat(600),
      },
      '2026-12-07T10:00:00.000Z',
    );
    expect(event?.entry.target?.name).toMatch(/^bad namex+$/);
    expect(event?.entry.target?.name).toHaveLength(320);
    expect(event?.entry.detail).toHaveLength(500);
  });
});
