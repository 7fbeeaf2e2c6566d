import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { Server, type Socket } from 'socket.io';
import {
  InteractionRequestSchema,
  PROTOCOL_VERSION,
  RuntimeAuthSchema,
  RUNTIME_NAMESPACE,
  type AnnounceAck,
  type AnnounceBatch,
  type AnnounceBatchAck,
  type InteractionRequest,
  type InteractionResolution,
} from '../../contracts';

/**
 * A minimal real socket.io server speaking the '/runtime' side of the wire, so
 * the connection can be tested independently of the full host (which has its
 * own tests and is exercised end to end elsewhere).
 */
export interface RuntimeTestServer {
  url: string;
  announces: InteractionRequest[];
  resolutionAcks: string[];
  withdrawals: string[];
  /** Every `announce:batch` received, in order. */
  batches: AnnounceBatch['entries'][];
  /** requestIds a batch answers `unknown` for (as a host that lost them would). */
  unknownInBatch: Set<string>;
  /** What the next announce of a requestId is answered with; default pending. */
  ackFor: Map<string, AnnounceAck>;
  /** Replies to the next message of an event with this, verbatim (a malformed host). */
  nextReply: Map<'announce' | 'announce:batch' | 'resolution:ack' | 'withdraw', unknown>;
  resolve(requestId: string, resolution: InteractionResolution): void;
  /** Sends any payload as a notice to every connected runtime. */
  send(event: string, payload: unknown): void;
  disconnectAll(): void;
  close(): Promise<void>;
}

export async function startRuntimeTestServer(
  token: string,
  options: { port?: number; protocolVersion?: number } = {},
): Promise<RuntimeTestServer> {
  const protocolVersion = options.protocolVersion ?? PROTOCOL_VERSION;
  const http = createServer();
  const io = new Server(http);
  const runtime = io.of(RUNTIME_NAMESPACE);
  const routes = new Map<string, { socket: Socket; protocolRequestId: string }>();
  const state: Omit<RuntimeTestServer, 'url' | 'resolve' | 'send' | 'disconnectAll' | 'close'> = {
    announces: [],
    resolutionAcks: [],
    withdrawals: [],
    batches: [],
    unknownInBatch: new Set(),
    ackFor: new Map(),
    nextReply: new Map(),
  };
  /** The verbatim reply queued for `event`, once; undefined when none is. */
  const override = (event: 'announce' | 'announce:batch' | 'resolution:ack' | 'withdraw') => {
    if (!state.nextReply.has(event)) return undefined;
    const reply = { value: state.nextReply.get(event) };
    state.nextReply.delete(event);
    return reply;
  };

  runtime.use((socket, next) => {
    const auth = RuntimeAuthSchema.safeParse(socket.handshake.auth);
    const reject = (code: string, message: string) =>
      next(Object.assign(new Error(message), { data: { code, message } }));
    if (!auth.success || auth.data.token !== token) return reject('unauthorized', 'invalid token');
    if (auth.data.protocolVersion !== protocolVersion) {
      return reject('protocol-mismatch', `host speaks protocol ${protocolVersion}`);
    }
    next();
  });

  runtime.on('connection', (socket) => {
    socket.on('announce', (raw: unknown, ack: (result: AnnounceAck) => void) => {
      const request = InteractionRequestSchema.parse(raw);
      state.announces.push(request);
      routes.set(request.requestId, { socket, protocolRequestId: request.protocolRequestId });
      const verbatim = override('announce');
      if (verbatim) return ack(verbatim.value as AnnounceAck);
      ack(
        state.ackFor.get(request.requestId) ?? { ok: true, status: 'pending', autoResolution: { status: 'disabled' } },
      );
    });
    socket.on('announce:batch', (raw: AnnounceBatch, ack: (result: AnnounceBatchAck) => void) => {
      state.batches.push(raw.entries);
      const verbatim = override('announce:batch');
      if (verbatim) return ack(verbatim.value as AnnounceBatchAck);
      const reply = {
        ok: true as const,
        resolved: [] as { requestId: string; resolution: InteractionResolution }[],
        withdrawn: [] as string[],
        unknown: [] as string[],
      };
      for (const { requestId, protocolRequestId } of raw.entries) {
        const answer = state.ackFor.get(requestId);
        if (state.unknownInBatch.has(requestId)) reply.unknown.push(requestId);
        else if (answer?.ok && answer.status === 'resolved')
          reply.resolved.push({ requestId, resolution: answer.resolution });
        else if (answer?.ok && answer.status === 'withdrawn') reply.withdrawn.push(requestId);
        else routes.set(requestId, { socket, protocolRequestId });
      }
      ack(reply);
    });
    socket.on('resolution:ack', (raw: { requestId: string }, ack: (result: { ok: true }) => void) => {
      state.resolutionAcks.push(raw.requestId);
      const verbatim = override('resolution:ack');
      ack(verbatim ? (verbatim.value as { ok: true }) : { ok: true });
    });
    socket.on('withdraw', (raw: { requestId: string }, ack: (result: { ok: true }) => void) => {
      state.withdrawals.push(raw.requestId);
      const verbatim = override('withdraw');
      ack(verbatim ? (verbatim.value as { ok: true }) : { ok: true });
    });
  });

  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = http.address() as AddressInfo;

  return Object.assign(state, {
    url: `http://127.0.0.1:${address.port}`,
    resolve(requestId: string, resolution: InteractionResolution) {
      const route = routes.get(requestId);
      if (!route) throw new Error(`no route for ${requestId}`);
      route.socket.emit('resolved', { requestId, protocolRequestId: route.protocolRequestId, resolution });
    },
    send(event: string, payload: unknown) {
      runtime.emit(event, payload);
    },
    disconnectAll() {
      runtime.disconnectSockets(true);
    },
    async close() {
      io.disconnectSockets(true);
      await new Promise<void>((resolve, reject) => void io.close(() => resolve()).catch(reject));
    },
  });
}
