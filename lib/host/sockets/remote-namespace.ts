import { type Namespace, type Server, type Socket } from 'socket.io';
import {
  DeviceRenameCommandSchema,
  DeviceRevokeCommandSchema,
  MachineRevokeCommandSchema,
  PreferencesPatchSchema,
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
  RemoteAuthSchema,
  RespondCommandSchema,
  type DevicesAck,
  type HostEvent,
  type MachinesAck,
  type RemoteAuth,
  type RemoteClientToServerEvents,
  type RemoteServerToClientEvents,
  type SimpleAck,
  type SnapshotAck,
} from '../../contracts';
import { type DeviceService } from '../auth/devices';
import { type MachineService } from '../auth/machines';
import { type AuthResult, type Principal } from '../auth/principal';
import { type InteractionRegistry } from '../registry';
import { failure } from '../registry-types';
import { handshakeGuard } from './handshake';
import { handleCommand, rateLimiter } from './message-handling';
import { type RateLimit } from './token-bucket';

/** Beyond this many missed events a snapshot is cheaper than a replay. */
const MAX_REPLAY_EVENTS = 5_000;
const REPLAY_BATCH = 500;

export interface RemoteSocketData {
  auth: RemoteAuth;
  /** Always a device: the handshake lets nothing else in (R16.1). */
  principal: Principal;
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

/** The socket.io room of one device's connections, so a revocation reaches all of them at once. */
const deviceRoom = (deviceId: string) => `device:${deviceId}`;

/** How long machine list changes are gathered into one `machines` message (a flapping machine, R17.5). */
export const MACHINES_BROADCAST_MS = 250;

/** The remotes' endpoint: a snapshot or replay on connect, then every event live. Returns how to stop it. */
export function attachRemoteNamespace(
  io: Server,
  options: {
    registry: InteractionRegistry;
    devices: DeviceService;
    machines: MachineService;
    /** A paired device's credential only (R16.1). */
    authenticate(candidate: string | undefined): AuthResult;
    rateLimit: RateLimit;
    onError: (error: unknown) => void;
  },
): () => void {
  // socket.io types a namespace with its server's event maps; each of ours has its own.
  const namespace = io.of(REMOTE_NAMESPACE) as unknown as RemoteNamespace;
  namespace.use(
    handshakeGuard({
      schema: RemoteAuthSchema,
      protocolVersion: REMOTE_PROTOCOL_VERSION,
      // `token`: what an app from before device credentials sends; it is told to pair again (R16.7).
      credentialFields: ['credential', 'token'],
      authenticate: options.authenticate,
      store: (socket, auth, principal) => (socket.data = { auth, principal }),
    }),
  );
  // R16.5: the revocation event has gone out to every remote (this device's too); now drop its connections.
  options.devices.onRevoked((deviceId) => namespace.in(deviceRoom(deviceId)).disconnectSockets(true));
  // R17.5: agents coming and going, a join, a revocation: one whole list per quiet moment, to every remote.
  let broadcast: ReturnType<typeof setTimeout> | undefined;
  const stopListening = options.machines.onChange(() => {
    broadcast ??= setTimeout(() => {
      broadcast = undefined;
      namespace.emit('machines', { machines: options.machines.list() });
    }, MACHINES_BROADCAST_MS);
    broadcast.unref();
  });
  namespace.on('connection', (socket) => {
    const { registry, devices, machines, onError } = options;
    const deviceId = socket.data.principal.id;
    void socket.join(deviceRoom(deviceId));
    devices.connected(deviceId);
    socket.on('disconnect', () => devices.disconnected(deviceId));
    socket.use(rateLimiter(options.rateLimit));
    // A snapshot carries the machine list; a resume by seq does not, so it gets the list on its own.
    if (streamEvents(socket, registry) === 'resumed') socket.emit('machines', { machines: machines.list() });
    socket.on('respond', (payload, ack) =>
      handleCommand({
        schema: RespondCommandSchema,
        payload,
        ack,
        onError,
        // The device's name as the log has it now (a rename shows on later answers).
        run: (command) => registry.respond(command, { id: deviceId, label: devices.nameOf(deviceId) ?? deviceId }),
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
    socket.on('devices:list', (ack: unknown) => {
      if (typeof ack !== 'function') return;
      (ack as (result: DevicesAck) => void)({ ok: true, devices: devices.list() });
    });
    socket.on('devices:revoke', (payload, ack) =>
      handleCommand({
        schema: DeviceRevokeCommandSchema,
        payload,
        ack,
        onError,
        run: (command): SimpleAck => {
          const outcome = devices.revoke(command.deviceId, deviceId);
          return outcome.ok ? { ok: true } : failure('unknown-device', `No paired device ${command.deviceId}`);
        },
      }),
    );
    socket.on('machines:list', (ack: unknown) => {
      if (typeof ack !== 'function') return;
      (ack as (result: MachinesAck) => void)({ ok: true, machines: machines.list() });
    });
    socket.on('machines:revoke', (payload, ack) =>
      handleCommand({
        schema: MachineRevokeCommandSchema,
        payload,
        ack,
        onError,
        run: (command): SimpleAck => {
          const outcome = machines.revoke(command.machineId, deviceId);
          return outcome.ok ? { ok: true } : failure('unknown-machine', `No joined machine ${command.machineId}`);
        },
      }),
    );
    socket.on('device:rename', (payload, ack) =>
      handleCommand({
        schema: DeviceRenameCommandSchema,
        payload,
        ack,
        onError,
        run: (command): SimpleAck =>
          devices.rename(deviceId, command.name)
            ? { ok: true }
            : failure('unknown-device', 'This device is no longer paired'),
      }),
    );
  });
  return () => {
    stopListening();
    clearTimeout(broadcast);
    broadcast = undefined;
  };
}

/**
 * Resume without gaps or duplicates: subscribe first, then send a snapshot or
 * replay `seq > lastSeq`, then release live events, dropping any seq already sent.
 */
function streamEvents(socket: RemoteSocket, registry: InteractionRegistry): 'snapshot' | 'resumed' {
  let sentSeq = 0;
  let live = false;
  const held: HostEvent[] = [];
  const send = (events: readonly HostEvent[]) => {
    const fresh = events.filter((event) => event.seq > sentSeq);
    if (fresh.length === 0) return;
    sentSeq = fresh[fresh.length - 1]?.seq ?? sentSeq;
    socket.emit('events', { events: fresh, serverTime: new Date().toISOString() });
  };
  const unsubscribe = registry.subscribe((events) => (live ? send(events) : held.push(...events)), { live: true });
  socket.on('disconnect', unsubscribe);

  const resume = socket.data.auth.resume;
  const headSeq = registry.projection.seq;
  // Another log's seq (a reset data dir, R10.6), or one ahead of this log: start over from a snapshot.
  const fromSnapshot =
    resume === undefined ||
    resume.logId !== registry.logId ||
    resume.lastSeq > headSeq ||
    headSeq - resume.lastSeq > MAX_REPLAY_EVENTS;
  if (fromSnapshot) {
    const snapshot = registry.snapshot();
    sentSeq = snapshot.seq;
    socket.emit('snapshot', snapshot);
  } else {
    const lastSeq = resume.lastSeq;
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
  return fromSnapshot ? 'snapshot' : 'resumed';
}
