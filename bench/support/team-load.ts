// The load of bench/team-hub.ts on one setup (one hub, or several replicas of one log): agents connected as real
// runtimes are (lib/runtime/host-connection.ts, the agent token), paired phones on '/remote', both spread over the
// hubs round robin; then questions asked by agents and answered by a phone on another hub than the agent's.
import { type HostConnection, connectToHost } from '../../lib/runtime/host-connection';
import { createRuntimeBroker } from '../../lib/runtime/runtime-broker';
import { ANSWER_RETRY_MAX_MS, ANSWER_RETRY_MIN_MS, TRANSIENT_ANSWER_ERRORS } from '../../lib/client/answer-queue';
import { type EventBatch, type RespondAck, type RespondCommand } from '../../lib/contracts';
import { ANSWER, permissionRequest } from './payloads';
import { connectRemote, pairBenchDevice, type RemoteSocket } from './remote-client';

export interface Hub {
  url: string;
  token: string;
  dataDir: string;
}

interface Agent {
  hub: number;
  connection: HostConnection;
  broker: ReturnType<typeof createRuntimeBroker>;
}

interface Phone {
  hub: number;
  socket: RemoteSocket;
}

/** One question's timings (ms). */
export interface QuestionSample {
  /** From the agent's call to each phone's receipt of the question. */
  seen: number[];
  /** The same, for the phones connected to another hub than the agent's (none on a single hub). */
  seenElsewhere: number[];
  /** From the answering phone's `respond` to the agent's tool call returning the answer. */
  answer: number;
}

export interface LoadedSetup {
  name: string;
  hubs: number;
  /** Asks question `index` and answers it once every phone has it; rejects after `timeoutMs`. */
  ask(index: number, timeoutMs: number): Promise<QuestionSample>;
  /** Answers a hub refused (the app sent them again, as its outbox does). */
  answersRefused(): number;
  /** The newest seq any phone has been told: each event's seq, so appends counted from the log itself. */
  newestSeq(): number;
  /**
   * Waits until the phones were told the agents received `count` answers (the last write of a question), at most
   * `timeoutMs`; resolves with how many receipts are still not logged.
   */
  delivered(count: number, timeoutMs: number): Promise<number>;
  close(): Promise<void>;
}

interface Tracking {
  started: number;
  agentHub: number;
  seen: number[];
  seenElsewhere: number[];
  phones: Set<number>;
  hostRequestId?: string;
  allSeen: () => void;
}

/** How many connections are opened at once: a burst of 1,000 handshakes would only measure the handshakes. */
const CONNECT_BATCH = 50;

export interface LoadOptions {
  name: string;
  hubs: readonly Hub[];
  agents: number;
  phones: number;
  log?: (line: string) => void;
}

export async function loadSetup(options: LoadOptions): Promise<LoadedSetup> {
  const { hubs } = options;
  const log = options.log ?? (() => undefined);
  const agents: Agent[] = [];
  const phones: Phone[] = [];
  const tracking = new Map<string, Tracking>();
  let newestSeq = 0;
  let delivered = 0;
  let answersRefused = 0;
  const deliveredIds = new Set<string>();
  const answeredIds: string[] = [];
  const deliveredWaiters = new Set<() => void>();
  const close = async () => {
    for (const phone of phones) phone.socket.disconnect();
    await Promise.all(agents.map((agent) => agent.connection.close()));
  };
  try {
    const hubOf = (index: number) => {
      const hub = hubs[index % hubs.length];
      if (!hub) throw new Error('a setup needs at least one hub');
      return hub;
    };
    for (let from = 0; from < options.agents; from += CONNECT_BATCH) {
      const batch: Agent[] = [];
      for (let index = from; index < Math.min(options.agents, from + CONNECT_BATCH); index += 1) {
        const hub = hubOf(index);
        const connection = connectToHost({ url: hub.url, token: hub.token, label: `bench-agent-${index}` });
        batch.push({ hub: index % hubs.length, connection, broker: createRuntimeBroker(connection) });
      }
      agents.push(...batch);
      await Promise.all(batch.map((agent) => agent.connection.ready(60_000)));
    }
    log(`${options.name}: ${agents.length} agents connected`);
    // Paired one after another, as people pair phones, each through the hub it then connects to (on a team hub any
    // replica would do, R20.42); a hub keeps only a few unused codes at once.
    const credentials: string[] = [];
    for (let index = 0; index < options.phones; index += 1)
      credentials.push((await pairBenchDevice(hubOf(index), `bench-phone-${index}`)).credential);
    for (let from = 0; from < options.phones; from += CONNECT_BATCH) {
      const batch = await Promise.all(
        credentials.slice(from, from + CONNECT_BATCH).map(async (credential, offset) => {
          const index = from + offset;
          const { socket } = await connectRemote(hubOf(index).url, credential);
          return { hub: index % hubs.length, socket, index };
        }),
      );
      for (const { hub, socket, index } of batch) {
        phones.push({ hub, socket });
        socket.on('events', (events: EventBatch) => {
          const at = performance.now();
          for (const event of events.events) {
            if (event.seq > newestSeq) newestSeq = event.seq;
            if (event.type === 'interaction.requested') {
              const toolUseId = event.interaction.toolUseId ?? '';
              const entry = tracking.get(toolUseId);
              if (!entry || entry.phones.has(index)) continue;
              entry.phones.add(index);
              entry.hostRequestId = event.interaction.requestId;
              entry.seen.push(at - entry.started);
              if (hub !== entry.agentHub) entry.seenElsewhere.push(at - entry.started);
              if (entry.phones.size === options.phones) entry.allSeen();
            } else if (event.type === 'interaction.delivered' && index === 0) {
              delivered += 1;
              deliveredIds.add(event.requestId);
              for (const waiter of [...deliveredWaiters]) waiter();
            }
          }
        });
      }
    }
    log(`${options.name}: ${phones.length} phones paired and connected`);
  } catch (error) {
    await close();
    throw error;
  }

  const ask = async (index: number, timeoutMs: number): Promise<QuestionSample> => {
    const agentIndex = (index * 7919) % agents.length;
    const agent = agents[agentIndex];
    if (!agent) throw new Error('no agents');
    const request = permissionRequest(`${options.name}-q${index}`, `session-${agentIndex}`);
    const toolUseId = request.toolUseId ?? '';
    let allSeen = () => undefined as void;
    const everyPhone = new Promise<void>((resolve) => (allSeen = resolve));
    const entry: Tracking = {
      started: performance.now(),
      agentHub: agent.hub,
      seen: [],
      seenElsewhere: [],
      phones: new Set(),
      allSeen: () => allSeen(),
    };
    tracking.set(toolUseId, entry);
    try {
      const answered = agent.broker.requestPermission(request);
      // Unhandled until awaited below; a refusal must still reject the question.
      answered.catch(() => undefined);
      await within(
        everyPhone,
        timeoutMs,
        () => `${options.name} question ${index}: ${entry.phones.size} of ${phones.length} phones saw it`,
      );
      // The answer comes from a phone on the next hub after the agent's: across replicas on a team hub.
      const candidates = phones.filter((phone) => phone.hub === (agent.hub + 1) % hubs.length);
      const answerer = candidates[index % Math.max(1, candidates.length)];
      const hostRequestId = entry.hostRequestId;
      if (!answerer || !hostRequestId) throw new Error(`${options.name} question ${index}: no phone to answer it`);
      const answerStarted = performance.now();
      const sent = answerAsTheAppDoes(answerer.socket, {
        requestId: hostRequestId,
        clientResponseId: `${options.name}-a${index}`,
        response: ANSWER,
      });
      const result = await within(
        answered,
        timeoutMs,
        () => `${options.name} question ${index}: the answer never reached the agent`,
      );
      const answerMs = performance.now() - answerStarted;
      if (result.decision !== 'modify')
        throw new Error(`${options.name} question ${index}: expected modify, got ${result.decision}`);
      answeredIds.push(hostRequestId);
      const refused = await sent;
      if (refused.length > 0) {
        answersRefused += refused.length;
        log(
          `${options.name} question ${index}: the answer was refused ${refused.length}× before it was taken (${refused[0]})`,
        );
      }
      return { seen: entry.seen, seenElsewhere: entry.seenElsewhere, answer: answerMs };
    } finally {
      tracking.delete(toolUseId);
    }
  };

  return {
    name: options.name,
    hubs: hubs.length,
    ask,
    newestSeq: () => newestSeq,
    answersRefused: () => answersRefused,
    delivered: async (count, timeoutMs) => {
      let check = () => undefined as void;
      const reached = new Promise<void>((resolve) => {
        check = () => {
          if (delivered >= count) resolve();
        };
        deliveredWaiters.add(check);
        check();
      });
      try {
        await within(reached, timeoutMs, () => 'receipts');
      } catch {
        const missing = answeredIds.filter((id) => !deliveredIds.has(id));
        log(`${options.name}: no receipt logged after ${timeoutMs} ms for ${missing.join(', ')}`);
      } finally {
        deliveredWaiters.delete(check);
      }
      return Math.max(0, count - delivered);
    },
    close,
  };
}

/**
 * Sends an answer and, while the hub refuses it with an error that may clear up, sends it again after the app's
 * outbox delay (lib/client/answer-queue.ts: 1 s, doubling); resolves with the refusals' messages once it is taken.
 */
async function answerAsTheAppDoes(socket: RemoteSocket, command: RespondCommand): Promise<string[]> {
  const refusals: string[] = [];
  for (let delayMs = ANSWER_RETRY_MIN_MS; ; delayMs = Math.min(ANSWER_RETRY_MAX_MS, delayMs * 2)) {
    const ack = await new Promise<RespondAck>((resolve) => socket.emit('respond', command, resolve));
    if (ack.ok) return refusals;
    if (!TRANSIENT_ANSWER_ERRORS.has(ack.error.code) || refusals.length >= 5)
      throw new Error(`the answer to ${command.requestId} was refused: ${ack.error.code} ${ack.error.message}`);
    refusals.push(`${ack.error.code}: ${ack.error.message}`);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}

function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what()} after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
