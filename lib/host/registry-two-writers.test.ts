import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type HostEvent, type NewHostEvent, type RespondCommand } from '../contracts';
import { LogContendedError } from './log-contended-error';
import { InteractionRegistry } from './registry';
import { type RuntimeNotifier } from './registry-types';
import { type AppendOptions, type EventStore, LogMovedError } from './store/event-store';
import { MemoryEventStore } from './store/memory-event-store';
import { SqliteEventStore } from './store/sqlite-event-store';
import { questionRequest } from './test-support/fixtures';
import { tempDir } from './test-support/test-host';

/**
 * Two registries on ONE log stand for two hub replicas behind a load balancer (issue 38): each has its own
 * projection, queue and memory, and only the log's conditional append keeps them from deciding twice.
 * Each append waits a macrotask before it reaches the log, so both replicas decide before either appends:
 * the race a network between replica and database makes.
 */
class RacingStore implements EventStore {
  constructor(private readonly log: EventStore) {}

  get logId(): string {
    return this.log.logId;
  }

  get credentials() {
    return this.log.credentials;
  }

  async append(events: readonly NewHostEvent[], options?: AppendOptions): Promise<HostEvent[]> {
    await new Promise((resolve) => setTimeout(resolve, 0));
    return this.log.append(events, options);
  }

  readSince(afterSeq: number, limit: number): Promise<HostEvent[]> {
    return this.log.readSince(afterSeq, limit);
  }

  readSeqs(seqs: readonly number[]): Promise<HostEvent[]> {
    return this.log.readSeqs(seqs);
  }

  lastSeq(): Promise<number> {
    return this.log.lastSeq();
  }

  watch(listener: (lastSeq: number) => void): () => void {
    return this.log.watch(listener);
  }

  close(): Promise<void> {
    return this.log.close();
  }
}

const logs: EventStore[] = [];
const registries: InteractionRegistry[] = [];
afterEach(async () => {
  for (const registry of registries.splice(0)) registry.stop();
  for (const log of logs.splice(0)) await log.close();
});

const shared: [string, () => EventStore][] = [
  ['one in-memory log', () => new MemoryEventStore()],
  ['one SQLite log', () => new SqliteEventStore(path.join(tempDir('askaway-two-writers-'), 'askaway.db'))],
];

/** Records what a registry tells the agents connected to it. */
function recordingNotifier() {
  const resolved: Parameters<RuntimeNotifier['resolved']>[] = [];
  const autoResolution: Parameters<RuntimeNotifier['autoResolution']>[] = [];
  const notifier: RuntimeNotifier = {
    resolved: (...args) => resolved.push(args),
    autoResolution: (...args) => autoResolution.push(args),
  };
  return { notifier, resolved, autoResolution };
}

const answer = (requestId: string, choice: string, clientResponseId: string): RespondCommand => ({
  requestId,
  clientResponseId,
  response: { action: 'accept', content: { answers: { 'Which database?': choice, 'Which extras?': 'Metrics' } } },
});

describe.each(shared)('[R20.2] two hub replicas on %s', (_name, createLog) => {
  async function replicas() {
    const log = createLog();
    logs.push(log);
    const open = async () => {
      const registry = await InteractionRegistry.open({ store: new RacingStore(log) });
      registries.push(registry);
      return registry;
    };
    return { log, a: await open(), b: await open() };
  }

  /** A question announced through replica `a`, known to both. */
  async function asked(a: InteractionRegistry, b: InteractionRegistry) {
    const request = questionRequest();
    expect(await a.announce(request, 'agent-on-a')).toMatchObject({ ok: true, status: 'pending' });
    await b.catchUp();
    expect(b.projection.get(request.requestId)?.status).toBe('pending');
    return request;
  }

  const resolutionsIn = async (log: EventStore) =>
    (await log.readSince(0, 1_000)).filter((event) => event.type === 'interaction.resolved');

  it('[R20.6][R10.3] both answer one question at the same instant: one resolution, the other is told who won', async () => {
    const { log, a, b } = await replicas();
    const request = await asked(a, b);

    const [onA, onB] = await Promise.all([
      a.respond(answer(request.requestId, 'SQLite', 'phone-1'), { id: 'phone' }),
      b.respond(answer(request.requestId, 'Postgres (Recommended)', 'laptop-1'), { id: 'laptop' }),
    ]);

    const resolutions = await resolutionsIn(log);
    expect(resolutions).toHaveLength(1);
    const winner = resolutions[0]?.type === 'interaction.resolved' ? resolutions[0].resolution : undefined;
    expect(winner?.device?.id).toBe('phone');
    expect(onA).toMatchObject({ ok: true, status: 'accepted', resolution: winner });
    // Exactly the ack a late phone gets on one hub (R10.3).
    expect(onB).toEqual({ ok: true, status: 'already-resolved', resolution: winner });
    expect(b.projection.get(request.requestId)?.resolution).toEqual(winner);
    expect(b.projection.seq).toBe(await log.lastSeq());
  });

  it('[R20.6] the winner repeating its own answer through the other replica is accepted again, not a second resolution', async () => {
    const { log, a, b } = await replicas();
    const request = await asked(a, b);
    const command = answer(request.requestId, 'SQLite', 'phone-1');
    const [first, again] = await Promise.all([
      a.respond(command, { id: 'phone' }),
      b.respond(command, { id: 'phone' }),
    ]);
    expect(first).toMatchObject({ ok: true, status: 'accepted' });
    expect(again).toMatchObject({ ok: true, status: 'accepted' });
    expect(await resolutionsIn(log)).toHaveLength(1);
  });

  it('[R20.4][R20.8] the agent waits on replica a, the phone answers on b: a hears of it at its next catch-up', async () => {
    const { a, b } = await replicas();
    const agent = recordingNotifier();
    const agentsOnB = recordingNotifier();
    await a.start(agent.notifier);
    await b.start(agentsOnB.notifier);
    const request = await asked(a, b);

    expect(await b.respond(answer(request.requestId, 'SQLite', 'phone-1'), { id: 'phone' })).toMatchObject({
      status: 'accepted',
    });
    // The route to the agent is a's alone: b has nobody to tell.
    expect(agentsOnB.resolved).toEqual([]);
    expect(agent.resolved).toEqual([]);
    const heard: HostEvent[][] = [];
    a.subscribe((events) => heard.push([...events]));
    expect(await a.catchUp()).toBe(1);
    expect(agent.resolved).toEqual([
      [
        'agent-on-a',
        expect.objectContaining({
          requestId: request.requestId,
          protocolRequestId: request.protocolRequestId,
          resolution: expect.objectContaining({ device: { id: 'phone' } }),
        }),
      ],
    ]);
    expect(heard.flat().map((event) => event.type)).toEqual(['interaction.resolved']);
    expect(await a.catchUp()).toBe(0);
  });

  it('[R20.3] a withdrawal on one replica and an answer on the other: whichever lands first, the other is refused', async () => {
    const { log, a, b } = await replicas();
    const request = await asked(a, b);

    const [withdrawn, answered] = await Promise.all([
      a.withdraw({ requestId: request.requestId, reason: 'Answered in the terminal' }),
      b.respond(answer(request.requestId, 'SQLite', 'phone-1'), { id: 'phone' }),
    ]);

    expect(withdrawn).toEqual({ ok: true });
    // Exactly what a phone answering a withdrawn question gets today.
    expect(answered).toEqual({
      ok: false,
      error: { code: 'withdrawn', message: 'The agent stopped waiting for this interaction' },
    });
    const types = (await log.readSince(0, 1_000)).map((event) => event.type);
    expect(types.filter((type) => type === 'interaction.resolved' || type === 'interaction.withdrawn')).toEqual([
      'interaction.withdrawn',
    ]);
  });

  it('[R20.3] an answer lands before a preference change decided on the same state: the change is decided again', async () => {
    const { log, a, b } = await replicas();
    const request = await asked(a, b);
    const headBefore = await log.lastSeq();

    const [answered, changed] = await Promise.all([
      a.respond(answer(request.requestId, 'SQLite', 'phone-1'), { id: 'phone' }),
      b.updatePreferences({ askUserQuestionAutoResolutionEnabled: true }),
    ]);

    expect(answered).toMatchObject({ ok: true, status: 'accepted' });
    expect(changed).toMatchObject({ ok: true, preferences: { askUserQuestionAutoResolutionEnabled: true } });
    // Decided on the stale state, the change would have scheduled a deadline for the answered question.
    const after = (await log.readSince(headBefore, 1_000)).map((event) => event.type);
    expect(after).toEqual(['interaction.resolved', 'preferences.updated']);
    await a.catchUp();
    expect(a.projection.preferences.askUserQuestionAutoResolutionEnabled).toBe(true);
    expect(a.projection.get(request.requestId)?.status).toBe('resolved');
    expect(b.projection.get(request.requestId)?.status).toBe('resolved');
  });

  it('[R20.3] a preference change lands before an answer: the answer is decided again and still wins the question', async () => {
    const { log, a, b } = await replicas();
    const agent = recordingNotifier();
    await a.start(agent.notifier);
    const request = await asked(a, b);

    const [changed, answered] = await Promise.all([
      b.updatePreferences({ askUserQuestionAutoResolutionEnabled: true }),
      a.respond(answer(request.requestId, 'SQLite', 'phone-1'), { id: 'phone' }),
    ]);

    expect(changed).toMatchObject({ ok: true });
    expect(answered).toMatchObject({ ok: true, status: 'accepted' });
    const types = (await log.readSince(0, 1_000)).map((event) => event.type);
    expect(types.slice(-3)).toEqual(['preferences.updated', 'UserInputAutoResolutionUpdated', 'interaction.resolved']);
    // The agent waiting on a heard of the schedule b decided (folded in as a's own would be), then of the answer.
    expect(agent.autoResolution.map(([socket, notice]) => [socket, notice.autoResolution.status])).toEqual([
      ['agent-on-a', 'scheduled'],
    ]);
    expect(agent.resolved).toHaveLength(1);
  });

  it('[R20.3] the same new question announced through both replicas at once is asked once', async () => {
    const { log, a, b } = await replicas();
    const request = questionRequest();
    const acks = await Promise.all([a.announce(request, 'agent-on-a'), b.announce(request, 'agent-on-b')]);
    expect(acks.map((ack) => ack.ok && ack.status)).toEqual(['pending', 'pending']);
    const requested = (await log.readSince(0, 1_000)).filter((event) => event.type === 'interaction.requested');
    expect(requested).toHaveLength(1);
  });

  it('[R20.3][R17.2] a machine revoked on one replica while its agent asks on the other: the question is refused', async () => {
    const { log, a, b } = await replicas();
    const laptop = { id: 'abcdef0123456789', name: 'laptop' };
    const at = new Date().toISOString();
    await a.recordMachineEvents(() => [{ type: 'machine.joined', at, machine: laptop }]);
    await b.catchUp();

    const [revoked, asked] = await Promise.all([
      a.recordMachineEvents(() => [{ type: 'machine.revoked', at, machineId: laptop.id }]),
      b.announce(questionRequest(), 'agent-on-b', laptop),
    ]);

    expect(revoked).toHaveLength(1);
    expect(asked).toMatchObject({ ok: false, error: { code: 'machine-revoked' } });
    expect((await log.readSince(0, 10)).map((event) => event.type)).toEqual(['machine.joined', 'machine.revoked']);
  });

  it('[R20.3] a device revoked on one replica while the other renames it: the rename is refused, not written', async () => {
    const { log, a, b } = await replicas();
    const at = new Date().toISOString();
    await a.recordDeviceEvents(() => [
      { type: 'device.paired', at, device: { id: 'abcdef0123456789', name: 'Phone', platform: '' } },
    ]);
    await b.catchUp();
    const active = (registry: InteractionRegistry) =>
      registry.projection.devices.get('abcdef0123456789')?.revokedAt === undefined;

    const [revoked, renamed] = await Promise.all([
      a.recordDeviceEvents(() =>
        active(a) ? [{ type: 'device.revoked', at, deviceId: 'abcdef0123456789' } as const] : [],
      ),
      b.recordDeviceEvents(() =>
        active(b) ? [{ type: 'device.renamed', at, deviceId: 'abcdef0123456789', name: 'Old phone' } as const] : [],
      ),
    ]);

    expect(revoked.map((event) => event.type)).toEqual(['device.revoked']);
    expect(renamed).toEqual([]);
    expect((await log.readSince(0, 10)).map((event) => event.type)).toEqual(['device.paired', 'device.revoked']);
  });
});

describe('[R20.1] one replica: the write queue', () => {
  it('[R20.1] two answers to one question at once on one hub are decided one after the other', async () => {
    const log = new MemoryEventStore();
    logs.push(log);
    const registry = await InteractionRegistry.open({ store: new RacingStore(log) });
    registries.push(registry);
    const request = questionRequest();
    await registry.announce(request, 'agent');
    const acks = await Promise.all([
      registry.respond(answer(request.requestId, 'SQLite', 'phone-1'), { id: 'phone' }),
      registry.respond(answer(request.requestId, 'Postgres (Recommended)', 'laptop-1'), { id: 'laptop' }),
    ]);
    expect(acks.map((ack) => ack.ok && ack.status)).toEqual(['accepted', 'already-resolved']);
    expect((await log.readSince(0, 100)).filter((event) => event.type === 'interaction.resolved')).toHaveLength(1);
  });
});

describe('[R20.3] a log that never stops moving', () => {
  /** Another writer that always appended first: every conditional append is refused. */
  class AlwaysMoved extends MemoryEventStore {
    attempts = 0;

    override async append(events: readonly NewHostEvent[], options?: AppendOptions): Promise<HostEvent[]> {
      if (options?.afterSeq === undefined) return super.append(events, options);
      this.attempts += 1;
      // What another replica appended meanwhile: a device event, harmless to this command's decision.
      const seq = await this.lastSeq();
      await super.append([
        {
          type: 'device.paired',
          at: new Date().toISOString(),
          device: { id: `${this.attempts}`.padStart(16, '0'), name: `Phone ${this.attempts}`, platform: '' },
        },
      ]);
      throw new LogMovedError(options.afterSeq, seq + 1);
    }
  }

  it('[R20.3] gives up after 5 decisions with a clear error, writes nothing of the command and keeps working', async () => {
    const log = new AlwaysMoved();
    logs.push(log);
    const registry = await InteractionRegistry.open({ store: log });
    registries.push(registry);
    const request = questionRequest();

    const refused = registry.announce(request, 'agent');
    await expect(refused).rejects.toBeInstanceOf(LogContendedError);
    await expect(refused).rejects.toThrow(/kept moving.*5 times in a row.*Nothing of this request was saved/);
    expect(log.attempts).toBe(5);
    const events = await log.readSince(0, 100);
    expect(events.map((event) => event.type)).toEqual(Array(5).fill('device.paired'));
    // It folded the other writer's events before deciding again; the last one waits for its next command.
    expect(registry.projection.seq).toBe(4);
    expect(registry.projection.get(request.requestId)).toBeUndefined();
    // The queue is not stuck: a command that writes nothing still answers, and catching up reaches the head.
    expect(await registry.updatePreferences({})).toMatchObject({ ok: true });
    expect(await registry.catchUp()).toBe(1);
    expect(registry.projection.seq).toBe(5);
  });
});
