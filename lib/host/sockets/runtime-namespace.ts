import { type Event as SocketEvent, type Namespace, type Server } from 'socket.io';
import {
  AnnounceBatchSchema,
  isRecord,
  MAX_ANNOUNCE_BATCH,
  InteractionRequestSchema,
  PROTOCOL_VERSION,
  RUNTIME_NAMESPACE,
  ResolutionAckCommandSchema,
  RuntimeAuthSchema,
  WithdrawCommandSchema,
  type RuntimeAuth,
  type RuntimeClientToServerEvents,
  type RuntimeServerToClientEvents,
} from '../../contracts';
import { type MachineService } from '../auth/machines';
import { type AuthResult, type Principal } from '../auth/principal';
import { type InteractionRegistry } from '../registry';
import { type RuntimeNotifier } from '../registry-types';
import { handshakeGuard } from './handshake';
import { type MessageIncidents } from '../message-incidents';
import { contained, shapeGuard, type MessageSource } from './message-guard';
import { handleCommand, rateLimiter } from './message-handling';
import { TokenBucket, type RateLimit } from './token-bucket';

export interface RuntimeSocketData {
  auth: RuntimeAuth;
  principal: Principal;
}

export type RuntimeNamespace = Namespace<
  RuntimeClientToServerEvents,
  RuntimeServerToClientEvents,
  Record<string, never>,
  RuntimeSocketData
>;

/**
 * Each entry of a batch costs what a full re-announce costs, so batching changes
 * neither how much a runtime may re-announce nor lets one message dodge the limit.
 */
function messageCost(packet: SocketEvent): number {
  if (packet[0] !== 'announce:batch') return 1;
  const batch: unknown = packet[1];
  const entries = isRecord(batch) ? batch.entries : undefined;
  return Array.isArray(entries) ? Math.min(entries.length, MAX_ANNOUNCE_BATCH) : 1;
}

/** The socket.io room of one machine's runtime connections, so a revocation drops all of them at once (R17.2). */
const machineRoom = (machineId: string) => `machine:${machineId}`;

/**
 * The runtimes' endpoint: announce / announce:batch / withdraw / resolution:ack in, resolved /
 * auto-resolution out. Each connection speaks for the machine its credential proves (R17.3).
 */
export function attachRuntimeNamespace(
  io: Server,
  options: {
    registry: InteractionRegistry;
    machines: MachineService;
    /** The agent token or a joined machine's credential (R16.1, R17.2). */
    authenticate(candidate: string | undefined): Promise<AuthResult>;
    rateLimit: RateLimit;
    /** New interactions per connection (R12.7). */
    newInteractionLimit: RateLimit;
    /** Where refused and failed messages are logged (R10.4). */
    incidents: MessageIncidents;
    onError: (error: unknown) => void;
  },
): RuntimeNotifier {
  // socket.io types a namespace with its server's event maps; each of ours has its own.
  const namespace = io.of(RUNTIME_NAMESPACE) as unknown as RuntimeNamespace;
  namespace.use(
    handshakeGuard({
      schema: RuntimeAuthSchema,
      protocolVersion: PROTOCOL_VERSION,
      credentialFields: ['token'],
      authenticate: options.authenticate,
      store: (socket, auth, principal) => (socket.data = { auth, principal }),
      onError: options.onError,
    }),
  );
  // R17.2: its runtimes are dropped from this namespace at once; their reconnects are refused. Not the whole
  // transport: a client multiplexing other namespaces over it keeps them.
  options.machines.onRevoked((machineId) => namespace.in(machineRoom(machineId)).disconnectSockets(false));
  namespace.on('connection', (socket) => {
    const { registry, machines, incidents } = options;
    const machine = machines.refFor(socket.data.principal);
    const source: MessageSource = {
      who: machine.id === machines.hub.id ? "the hub's agents" : `machine ${machine.name}`,
      incidents,
    };
    socket.use(shapeGuard(source));
    socket.use(rateLimiter(options.rateLimit, messageCost));
    // New interactions apart from re-announces (R12.7): a burst of a subagent fan-out passes, a flood does not.
    const newInteractions = new TokenBucket(
      options.newInteractionLimit.capacity,
      options.newInteractionLimit.refillPerSecond,
    );
    // Revoked between the handshake and now: the room's disconnect has already gone by.
    if (machine.id !== machines.hub.id && !machines.get(machine.id)) {
      socket.disconnect(true);
      return;
    }
    void socket.join(machineRoom(machine.id));
    machines.connected(machine.id);
    socket.on(
      'disconnect',
      contained('disconnect', source, () => machines.disconnected(machine.id)),
    );
    socket.on(
      'announce',
      contained('announce', source, (payload, ack) =>
        handleCommand({
          event: 'announce',
          schema: InteractionRequestSchema,
          payload,
          ack,
          source,
          run: (request) => registry.announce(request, socket.id, machine, () => newInteractions.take()),
        }),
      ),
    );
    socket.on(
      'announce:batch',
      contained('announce:batch', source, (payload, ack) =>
        handleCommand({
          event: 'announce:batch',
          schema: AnnounceBatchSchema,
          payload,
          ack,
          source,
          run: (batch) => registry.reannounce(batch, socket.id, machine),
        }),
      ),
    );
    socket.on(
      'withdraw',
      contained('withdraw', source, (payload, ack) =>
        handleCommand({
          event: 'withdraw',
          schema: WithdrawCommandSchema,
          payload,
          ack,
          source,
          run: (command) => registry.withdraw(command, machine),
        }),
      ),
    );
    socket.on(
      'resolution:ack',
      contained('resolution:ack', source, (payload, ack) =>
        handleCommand({
          event: 'resolution:ack',
          schema: ResolutionAckCommandSchema,
          payload,
          ack,
          source,
          run: (command) => registry.acknowledgeResolution(command, machine),
        }),
      ),
    );
  });
  // The socket itself, not a room broadcast to its id: the same message to the same one socket (one host
  // process, the in-memory adapter), without building a broadcast for it on the answer's path.
  return {
    resolved: (socketId, notice) => namespace.sockets.get(socketId)?.emit('resolved', notice),
    autoResolution: (socketId, notice) => namespace.sockets.get(socketId)?.emit('auto-resolution', notice),
  };
}
