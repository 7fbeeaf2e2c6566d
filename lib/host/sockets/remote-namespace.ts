import { type Namespace, type Server, type Socket } from 'socket.io';
import {
  PreferencesPatchSchema,
  REMOTE_NAMESPACE,
  RemoteAuthSchema,
  RespondCommandSchema,
  type HostEvent,
  type RemoteAuth,
  type RemoteClientToServerEvents,
  type RemoteServerToClientEvents,
  type SnapshotAck,
} from '../../contracts';
import { type InteractionRegistry } from '../registry';
import { handshakeGuard } from './handshake';
import { handleCommand, rateLimiter } from './message-handling';
import { type RateLimit } from './token-bucket';

/** Beyond this many missed events a snapshot is cheaper than a replay. */
const MAX_REPLAY_EVENTS = 5_000;
const REPLAY_BATCH = 500;

export interface RemoteSocketData {
  auth: RemoteAuth;
}

type RemoteNamespace = Namespace<
  RemoteClientToServerEvents,
  RemoteServerToClientEvents,
  Record<string, never>,
  RemoteSocketData
>;
type RemoteSocket = Socket<
  RemoteClientToServerEvents,
  RemoteServerToClientEvents,
  Record<string, never>,
  RemoteSocketData
>;

/** The remotes' endpoint: a snapshot or replay on connect, then every event live. */
export function attachRemoteNamespace(
  io: Server,
  options: { registry: InteractionRegistry; token: string; rateLimit: RateLimit; onError: (error: unknown) => void },
): void {
  // socket.io types a namespace with its server's event maps; each of ours has its own.
  const namespace = io.of(REMOTE_NAMESPACE) as unknown as RemoteNamespace;
  namespace.use(handshakeGuard(RemoteAuthSchema, options.token, (socket, auth) => (socket.data = { auth })));
  namespace.on('connection', (socket) => {
    socket.use(rateLimiter(options.rateLimit));
    streamEvents(socket, options.registry);
    const { registry, onError } = options;
    socket.on('respond', (payload, ack) =>
      handleCommand({
        schema: RespondCommandSchema,
        payload,
        ack,
        onError,
        run: (command) => registry.respond(command, socket.data.auth.device),
      }),
    );
    socket.on('preferences:update', (payload, ack) =>
      handleCommand({
        schema: PreferencesPatchSchema,
        payload,
        ack,
        onError,
        run: (patch) => registry.updatePreferences(patch),
      }),
    );
    socket.on('snapshot:get', (ack: unknown) => {
      if (typeof ack !== 'function') return;
      const reply = ack as (result: SnapshotAck) => void;
      reply({ ok: true, snapshot: registry.snapshot() });
    });
  });
}

/**
 * Resume without gaps or duplicates: subscribe first, then send a snapshot or
 * replay `seq > lastSeq`, then release live events, dropping any seq already sent.
 */
function streamEvents(socket: RemoteSocket, registry: InteractionRegistry): void {
  let sentSeq = 0;
  let live = false;
  const held: HostEvent[] = [];
  const send = (events: readonly HostEvent[]) => {
    const fresh = events.filter((event) => event.seq > sentSeq);
    if (fresh.length === 0) return;
    sentSeq = fresh[fresh.length - 1]?.seq ?? sentSeq;
    socket.emit('events', { events: fresh, serverTime: new Date().toISOString() });
  };
  const unsubscribe = registry.subscribe((events) => (live ? send(events) : held.push(...events)));
  socket.on('disconnect', unsubscribe);

  const lastSeq = socket.data.auth.lastSeq;
  const headSeq = registry.projection.seq;
  // A lastSeq ahead of the log means the remote knew another log (data dir reset): start over.
  if (lastSeq === undefined || lastSeq > headSeq || headSeq - lastSeq > MAX_REPLAY_EVENTS) {
    const snapshot = registry.snapshot();
    sentSeq = snapshot.seq;
    socket.emit('snapshot', snapshot);
  } else {
    sentSeq = lastSeq;
    for (
      let batch = registry.readSince(sentSeq, REPLAY_BATCH);
      batch.length > 0;
      batch = registry.readSince(sentSeq, REPLAY_BATCH)
    ) {
      send(batch);
    }
    // An empty batch still tells the remote that it is up to date, with the server's clock.
    if (sentSeq === lastSeq) socket.emit('events', { events: [], serverTime: new Date().toISOString() });
  }
  live = true;
  send(held);
}
