// Fault drill: a bounded fuzz of both endpoints (random and mutated valid messages,
// handshakes included) for 60 s. Phase 1 sends only messages the contracts reject
// and checks the host's state did not change at all; phase 2 mixes in valid ones.
// Throughout: the host stays up and responsive, never answers 'internal', and its
// memory stays bounded. Then ./hostile.ts: hostile shapes, a flood and a full disk.
import { io, type Socket } from 'socket.io-client';
import type * as z from 'zod/mini';
import {
  errorMessage,
  InteractionRequestSchema,
  PreferencesPatchSchema,
  PROTOCOL_VERSION,
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
  RemoteAuthSchema,
  RespondCommandSchema,
  ResolutionAckCommandSchema,
  RUNTIME_NAMESPACE,
  RuntimeAuthSchema,
  WithdrawCommandSchema,
  type Snapshot,
  type SnapshotAck,
} from '../../lib/contracts';
import { type DrillOutcome } from '../support/figures';
import { startHost } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';
import { ANSWER, interactionRequest } from '../support/payloads';
import { connectRawRuntime } from '../support/raw-runtime';
import { connectRemote, pairBenchDevice } from '../support/remote-client';
import { drillHostile } from './hostile';
import { readLog } from './log-reader';
import { mutate, randomValue, rng, type Rng } from './mutate';

const PHASE_MS = Number(process.env.DRILL_FUZZ_MS ?? 60_000) / 2;
const RSS_GROWTH_LIMIT = 256 * 2 ** 20;
const REMOTE_FUZZERS = 8;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Target {
  namespace: string;
  event: string;
  schema?: z.ZodMiniType;
  template: () => unknown;
}

export async function drillFuzz(
  seed = Number(process.env.DRILL_FUZZ_SEED ?? Date.now() % 2 ** 31),
): Promise<DrillOutcome[]> {
  const random = rng(seed);
  const host = await startHost();
  const problems: string[] = [];
  const acks = new Map<string, number>();
  let sent = 0;
  let phase: 1 | 2 = 1;
  const sockets: Socket[] = [];
  const debugSent = new Map<string, string>();
  const witness = interactionRequest('fuzz-witness', 'session-fuzz');
  const seeder = await connectRawRuntime(host.url, host.token, 'fuzz-witness-runtime');
  await seeder.emitWithAck('announce', witness);
  const observer = await connectRemote(host.url, (await pairBenchDevice(host, 'fuzz-observer')).credential);
  // Every remote fuzzer is a paired device; the handshake fuzzer mutates one more.
  const fuzzDevices = await Promise.all(
    Array.from({ length: REMOTE_FUZZERS }, (_, index) => pairBenchDevice(host, `fuzz-remote-${index}`)),
  );
  const handshakeDevice = await pairBenchDevice(host, 'fuzz-handshake');
  const snapshot = async (): Promise<Snapshot> => {
    const ack = (await observer.socket.timeout(5_000).emitWithAck('snapshot:get')) as SnapshotAck;
    if (!ack.ok) throw new Error(`snapshot:get failed: ${ack.error.message}`);
    return ack.snapshot;
  };
  const stable = (value: Snapshot) => JSON.stringify({ ...value, serverTime: undefined });

  const targets: Target[] = [
    {
      namespace: RUNTIME_NAMESPACE,
      event: 'announce',
      schema: InteractionRequestSchema,
      template: () => (random.next() < 0.5 ? witness : interactionRequest(`fuzz-${random.int(1e9)}`, 'session-fuzz')),
    },
    {
      namespace: RUNTIME_NAMESPACE,
      event: 'withdraw',
      schema: WithdrawCommandSchema,
      template: () => ({ requestId: witness.requestId, reason: 'fuzz' }),
    },
    {
      namespace: RUNTIME_NAMESPACE,
      event: 'resolution:ack',
      schema: ResolutionAckCommandSchema,
      template: () => ({ requestId: witness.requestId }),
    },
    {
      namespace: REMOTE_NAMESPACE,
      event: 'respond',
      schema: RespondCommandSchema,
      template: () => ({ requestId: witness.requestId, clientResponseId: `fuzz-${random.int(1e9)}`, response: ANSWER }),
    },
    {
      namespace: REMOTE_NAMESPACE,
      event: 'preferences:update',
      schema: PreferencesPatchSchema,
      template: () => ({ askUserQuestionAutoResolutionEnabled: true, askUserQuestionAutoResolutionTimeoutMs: 60_000 }),
    },
    { namespace: REMOTE_NAMESPACE, event: 'snapshot:get', template: () => undefined },
    { namespace: REMOTE_NAMESPACE, event: 'devices:list', template: () => undefined },
    { namespace: REMOTE_NAMESPACE, event: 'no-such-event', template: () => ({}) },
  ];

  /** A message for `target`: junk or a mutated valid one; in phase 1 only what the contract rejects. */
  const message = (target: Target, local: Rng): { payload: unknown; sendable: boolean } => {
    const payload = local.next() < 0.3 ? randomValue(local) : mutate(local, target.template());
    if (phase === 2 || !target.schema)
      return { payload, sendable: phase === 2 || target.event !== 'preferences:update' };
    // Judge what the host will parse: the JSON text socket.io sends, not the object in hand
    // (an own "__proto__" key, for one, survives JSON but not socket.io's binary encoding).
    const wire: unknown = payload === undefined ? undefined : JSON.parse(JSON.stringify(payload));
    return { payload, sendable: !target.schema.safeParse(wire).success };
  };

  const fuzzer = (namespace: string, index: number, perTick: number) => {
    const local = rng(seed + index + 1);
    const auth =
      namespace === RUNTIME_NAMESPACE
        ? { token: host.token, protocolVersion: PROTOCOL_VERSION, runtimeId: `fuzz-runtime-${index}` }
        : {
            credential: fuzzDevices[(index - 100) % REMOTE_FUZZERS]?.credential ?? '',
            protocolVersion: REMOTE_PROTOCOL_VERSION,
          };
    const socket = io(`${host.url}${namespace}`, {
      auth,
      transports: ['websocket'],
      reconnectionDelay: 50,
      reconnectionDelayMax: 200,
    });
    sockets.push(socket);
    const mine = targets.filter((target) => target.namespace === namespace);
    const timer = setInterval(() => {
      if (!socket.connected) return;
      for (let count = 0; count < perTick; count += 1) {
        const target = local.pick(mine);
        const { payload, sendable } = message(target, local);
        if (!sendable) continue;
        sent += 1;
        const roll = local.next();
        if (process.env.DRILL_DEBUG && target.event === 'respond') {
          const id = (payload as { clientResponseId?: unknown } | null)?.clientResponseId;
          if (typeof id === 'string') debugSent.set(id, `${roll.toFixed(3)} ${JSON.stringify(payload)}`);
        }
        const big = roll < 0.005 ? 'x'.repeat(300 * 1024) : undefined;
        const args: unknown[] = big ? [big] : payload === undefined ? [] : [payload];
        // A binary attachment switches socket.io to its binary encoder, which rebuilds objects:
        // only in phase 2, where nothing is judged by the contract beforehand.
        if (roll > 0.9 && phase === 2) args.push(Buffer.from([0, 1, 2, 3]));
        if (roll > 0.1) {
          socket.timeout(5_000).emit(target.event, ...args, (error: Error | null, ack: unknown) => {
            if (error) return;
            const record = ack as { ok?: unknown; error?: { code?: unknown } };
            const key =
              record?.ok === true
                ? `${target.event}: ok`
                : `${target.event}: ${String(record?.error?.code ?? 'malformed ack')}`;
            acks.set(key, (acks.get(key) ?? 0) + 1);
            if (record?.error?.code === 'internal')
              problems.push(`${target.event} got 'internal' for ${JSON.stringify(payload)?.slice(0, 200)}`);
            // Queries without a payload answer whatever comes with them; only commands must refuse.
            if (phase === 1 && record?.ok === true && target.schema !== undefined) {
              problems.push(
                `phase 1: ${target.event} accepted a message its schema rejects: ${JSON.stringify(payload)?.slice(0, 200)}`,
              );
            }
          });
        } else {
          socket.emit(target.event, ...args, local.pick([null, 42, 'not a function', {}]));
        }
      }
    }, 10);
    return () => clearInterval(timer);
  };

  const handshakes = setInterval(() => {
    const namespace = random.pick([RUNTIME_NAMESPACE, REMOTE_NAMESPACE]);
    const valid =
      namespace === RUNTIME_NAMESPACE
        ? { token: host.token, protocolVersion: PROTOCOL_VERSION, runtimeId: 'hs' }
        : { credential: handshakeDevice.credential, protocolVersion: REMOTE_PROTOCOL_VERSION };
    const auth = random.next() < 0.3 ? randomValue(random) : mutate(random, valid);
    const schema = namespace === RUNTIME_NAMESPACE ? RuntimeAuthSchema : RemoteAuthSchema;
    const record = (typeof auth === 'object' && auth !== null ? auth : {}) as { token?: unknown; credential?: unknown };
    const acceptable =
      schema.safeParse(auth).success &&
      (namespace === RUNTIME_NAMESPACE
        ? record.token === host.token
        : record.credential === handshakeDevice.credential);
    const socket = io(`${host.url}${namespace}`, {
      auth: auth as Record<string, unknown>,
      transports: ['websocket'],
      reconnection: false,
    });
    socket.once('connect', () => {
      if (!acceptable) problems.push(`handshake accepted with ${JSON.stringify(auth)?.slice(0, 200)}`);
      socket.disconnect();
    });
    socket.once('connect_error', () => socket.disconnect());
  }, 100);

  const memory: { rss: number; heap: number }[] = [];
  const sampler = setInterval(() => {
    host.usage().then(
      (usage) => memory.push({ rss: usage.rssBytes, heap: usage.heapUsedBytes }),
      () => problems.push('the host did not answer a usage query within 10 s'),
    );
  }, 2_000);

  const stops = [
    ...Array.from({ length: 4 }, (_, index) => fuzzer(RUNTIME_NAMESPACE, index, 3)),
    ...Array.from({ length: REMOTE_FUZZERS }, (_, index) => fuzzer(REMOTE_NAMESPACE, 100 + index, 1)),
  ];
  const start = await host.usage();
  const before = await snapshot();
  let sentPhase1 = 0;
  try {
    await sleep(PHASE_MS);
    const after = await snapshot();
    sentPhase1 = sent;
    if (stable(after) !== stable(before))
      problems.push(`phase 1: invalid messages changed the host state (seq ${before.seq} → ${after.seq})`);
    phase = 2;
    await sleep(PHASE_MS);
  } finally {
    for (const stop of stops) stop();
    clearInterval(handshakes);
    clearInterval(sampler);
  }
  try {
    if (host.child.exitCode !== null || host.child.signalCode !== null)
      throw new Error(`the host exited (${host.child.exitCode ?? host.child.signalCode})`);
    // Still serving: a fresh question can be asked and answered.
    const fresh = interactionRequest('fuzz-after', 'session-after');
    const announced = await seeder.timeout(5_000).emitWithAck('announce', fresh);
    const answered = await observer.socket
      .timeout(5_000)
      .emitWithAck('respond', { requestId: fresh.requestId, clientResponseId: 'after-1', response: ANSWER });
    if (!(announced as { ok?: unknown }).ok || (answered as { status?: unknown }).status !== 'accepted') {
      problems.push(
        `after the fuzz the host did not take a normal question: ${JSON.stringify({ announced, answered }).slice(0, 300)}`,
      );
    }
  } catch (error) {
    problems.push(`after the fuzz: ${errorMessage(error)}`);
  } finally {
    for (const socket of sockets) socket.disconnect();
    seeder.disconnect();
    observer.socket.disconnect();
  }
  const peakRss = Math.max(start.rssBytes, ...memory.map((entry) => entry.rss));
  if (peakRss - start.rssBytes > RSS_GROWTH_LIMIT) {
    problems.push(
      `host RSS grew by ${Math.round((peakRss - start.rssBytes) / 2 ** 20)} MiB (limit ${RSS_GROWTH_LIMIT / 2 ** 20} MiB)`,
    );
  }
  await host.stop();
  if (process.env.DRILL_DEBUG) {
    for (const event of readLog(host.dataDir).filter((entry) => entry.seq > before.seq)) {
      console.log(JSON.stringify(event).slice(0, 200));
      if (event.type === 'interaction.resolved')
        console.log('  sent as:', debugSent.get(event.resolution.clientResponseId ?? ''));
    }
  }
  const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
  // The hostile shapes, the flood and the full disk each need a host of their own (R12.5–R12.7).
  const hostile = await drillHostile();
  const refused = [...acks].filter(([key]) => !key.endsWith(': ok')).reduce((sum, [, count]) => sum + count, 0);
  return [
    {
      name: `fuzz both endpoints ${Math.round((PHASE_MS * 2) / 1000)} s (seed ${seed})`,
      ok: problems.length === 0,
      detail:
        `${sent.toLocaleString('en-US')} messages (${sentPhase1.toLocaleString('en-US')} contract-invalid in phase 1, state unchanged), ${refused.toLocaleString('en-US')} refused in acks; ` +
        `host RSS ${mib(start.rssBytes)} → peak ${mib(peakRss)} MiB, heap at end ${mib(memory.at(-1)?.heap ?? 0)} MiB` +
        (problems.length > 0 ? `; PROBLEMS: ${[...new Set(problems)].slice(0, 5).join(' | ')}` : ''),
    },
    ...hostile,
  ];
}

if (isMain(import.meta.url)) await runAlone('drills/fuzz', async () => ({ figures: [], drills: await drillFuzz() }));
