import { type Namespace, type Server, type Socket } from 'socket.io';
import type * as z from 'zod/mini';
import {
  DeviceRenameCommandSchema,
  DeviceRevokeCommandSchema,
  MachineRevokeCommandSchema,
  PendingMoreCommandSchema,
  PreferencesPatchSchema,
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
  RemoteAuthSchema,
  RespondCommandSchema,
  type AuditTarget,
  type DevicesAck,
  type HostEvent,
  type MachineInfo,
  type MachinesAck,
  type PendingMoreAck,
  type RespondAck,
  type Snapshot,
  type RemoteAuth,
  type RemoteClientToServerEvents,
  type RemoteServerToClientEvents,
  type SimpleAck,
  type SnapshotAck,
} from '../../contracts';
import { type AuditBy, type AuditTrail } from '../audit/audit-trail';
import { type DeviceService } from '../auth/devices';
import { type ClientAddressOf } from '../http/client-address';
import { type MachineService } from '../auth/machines';
import { type AuthResult, type Principal } from '../auth/principal';
import { type InteractionRegistry } from '../registry';
import { failure } from '../registry-types';
import { scoped } from '../people/lists-for-device';
import { deviceRecordForRemotes, eventsForRemotes, eventsVisibleTo } from '../people/people-for-remotes';
import { type VisibleQuestion } from '../people/question-visibility';
import { redactEventForRemotes, redactViewForRemotes } from '../redact-secrets';
import { respondAsDevice } from '../respond/device-respond';
import { handshakeGuard } from './handshake';
import { type MessageIncidents } from '../message-incidents';
import { contained, shapeGuard, type MessageSource } from './message-guard';
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
    authenticate(candidate: string | undefined): Promise<AuthResult>;
    rateLimit: RateLimit;
    /**
     * A team hub's audit record (R21.60–R21.62): answers and revocations from the app, and refused attempts, with
     * the address the socket's handshake came from.
     */
    audit?: { trail: AuditTrail; clientAddress: ClientAddressOf };
    /** Where refused and failed messages are logged (R10.4). */
    incidents: MessageIncidents;
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
      onError: options.onError,
    }),
  );
  // R16.5: the revocation event has gone out to every remote (this device's too); now drop its connections.
  options.devices.onRevoked((deviceId) => namespace.in(deviceRoom(deviceId)).disconnectSockets(true));
  // R17.5: agents coming and going, a join, a revocation: one whole list per quiet moment, to every remote.
  let broadcast: ReturnType<typeof setTimeout> | undefined;
  const sendMachines = () => {
    clearTimeout(broadcast);
    broadcast = undefined;
    const machines = options.machines.list();
    // Each device its own share: a member's lists only their own and their groups' machines (R21.19).
    for (const socket of namespace.sockets.values())
      socket.emit('machines', { machines: machinesFor(options.registry, socket.data.principal.id, machines) });
  };
  const stopListening = options.machines.onChange(() => {
    broadcast ??= setTimeout(sendMachines, MACHINES_BROADCAST_MS);
    broadcast.unref();
  });
  // R17.6: a change still gathering goes out before the next events, so the question an agent asks as it connects
  // (a hook, `askaway ask`) never reaches a remote ahead of the list that has its machine back ("Waiting for …").
  // Subscribed before any remote's stream, so it runs first for every commit.
  const stopFlushing = options.registry.subscribe(
    () => {
      if (broadcast !== undefined) sendMachines();
    },
    { live: true },
  );
  namespace.on('connection', (socket) => {
    const { registry, devices, machines, incidents } = options;
    const deviceId = socket.data.principal.id;
    const source: MessageSource = { who: `device ${socket.data.principal.name}`, incidents };
    const { audit } = options;
    const by: AuditBy = { deviceId, address: audit?.clientAddress(socket.request), via: 'app' };
    /** A member's attempt on what is not theirs, recorded within the bound (R21.62); the reply says nothing of it. */
    const recordRefused = (action: 'device-revoked' | 'machine-revoked', target: AuditTarget) => {
      const trail = audit?.trail;
      if (!trail) return Promise.resolve();
      return registry
        .recordAuditEvents(() =>
          trail.refused(
            deviceId,
            { action, actor: trail.actor(by), target, detail: "not this person's" },
            new Date().toISOString(),
          ),
        )
        .then(
          () => undefined,
          (error: unknown) => options.onError(error),
        );
    };
    socket.use(shapeGuard(source));
    socket.use(rateLimiter(options.rateLimit));
    void socket.join(deviceRoom(deviceId));
    devices.connected(deviceId);
    socket.on(
      'disconnect',
      contained('disconnect', source, () => devices.disconnected(deviceId)),
    );
    // A snapshot carries the machine list; a resume by seq does not, so it gets the list on its own.
    streamEvents(socket, registry, () => visibleTo(registry, deviceId)).then(
      (start) => {
        if (start === 'resumed')
          socket.emit('machines', { machines: machinesFor(registry, deviceId, machines.list()) });
      },
      (error: unknown) => {
        // The log could not be read back: this connection starts again (a snapshot next time), the host goes on.
        options.onError(error);
        socket.disconnect(true);
      },
    );
    /** A command with a payload, parsed and contained (R10.4). */
    const command = <Schema extends z.core.$ZodType>(
      event: keyof RemoteClientToServerEvents,
      schema: Schema,
      run: (command: z.infer<Schema>) => unknown,
    ) =>
      socket.on(
        event,
        contained(event, source, (payload: unknown, ack: unknown) =>
          handleCommand({ event, schema, payload, ack, source, run }),
        ),
      );
    /** A query: it reads nothing but its ack, the last argument, whatever comes before it. */
    const query = (event: keyof RemoteClientToServerEvents, answer: () => unknown) =>
      socket.on(
        event,
        contained(event, source, (...args: unknown[]) => {
          const ack = args.at(-1);
          if (typeof ack === 'function') (ack as (result: unknown) => void)(answer());
        }),
      );
    command('respond', RespondCommandSchema, (respond): Promise<RespondAck> =>
      respondAsDevice(registry, devices, deviceId, respond, audit && { trail: audit.trail, ...by, via: 'app' }),
    );
    command('preferences:update', PreferencesPatchSchema, (patch) => registry.updatePreferences(patch));
    query('snapshot:get', (): SnapshotAck => ({
      ok: true,
      snapshot: remoteSnapshot(registry, deviceId, visibleTo(registry, deviceId)),
    }));
    command('pending:more', PendingMoreCommandSchema, (more): PendingMoreAck => ({
      ok: true,
      ...registry.pendingPage(more.after, visibleTo(registry, deviceId)),
    }));
    query('devices:list', (): DevicesAck => ({
      ok: true,
      devices: scoped(devices.list(), registry.projection.listScope(deviceId), 'device'),
    }));
    command('devices:revoke', DeviceRevokeCommandSchema, async (revoke): Promise<SimpleAck> => {
      // A member revokes only their own person's devices (R21.17); another's answers as one not paired.
      const target = registry.projection.devices.get(revoke.deviceId);
      if (!mayManage(registry, deviceId, target && { personId: target.personId })) {
        if (target) await recordRefused('device-revoked', { kind: 'device', id: target.id });
        return failure('unknown-device', `No paired device ${revoke.deviceId}`);
      }
      const trail = audit?.trail;
      const outcome = await devices.revoke(
        revoke.deviceId,
        deviceId,
        trail?.done(by, 'device-revoked', (device) => trail.deviceTarget(device.id, device.name)),
      );
      return outcome.ok ? { ok: true } : failure('unknown-device', `No paired device ${revoke.deviceId}`);
    });
    query('machines:list', (): MachinesAck => ({
      ok: true,
      machines: machinesFor(registry, deviceId, machines.list()),
    }));
    command('machines:revoke', MachineRevokeCommandSchema, async (revoke): Promise<SimpleAck> => {
      const target = registry.projection.machines.get(revoke.machineId);
      if (!mayManage(registry, deviceId, target && { personId: target.personId, groupId: target.groupId })) {
        if (target) await recordRefused('machine-revoked', { kind: 'machine', id: target.id });
        return failure('unknown-machine', `No joined machine ${revoke.machineId}`);
      }
      const trail = audit?.trail;
      const outcome = await machines.revoke(
        revoke.machineId,
        deviceId,
        trail?.done(by, 'machine-revoked', (machine) => trail.machineTarget(machine.id, machine.name)),
      );
      return outcome.ok ? { ok: true } : failure('unknown-machine', `No joined machine ${revoke.machineId}`);
    });
    command('device:rename', DeviceRenameCommandSchema, async (rename): Promise<SimpleAck> =>
      (await devices.rename(deviceId, rename.name))
        ? { ok: true }
        : failure('unknown-device', 'This device is no longer paired'),
    );
  });
  return () => {
    stopListening();
    stopFlushing();
    clearTimeout(broadcast);
    broadcast = undefined;
  };
}

/**
 * Resume without gaps or duplicates: subscribe first, then send a snapshot or
 * replay `seq > lastSeq` (read from the log, so events committed meanwhile are held),
 * then release live events, dropping any seq already sent.
 */
async function streamEvents(
  socket: RemoteSocket,
  registry: InteractionRegistry,
  visibility: () => Visible | undefined,
): Promise<'snapshot' | 'resumed'> {
  let sentSeq = 0;
  let live = false;
  const held: HostEvent[] = [];
  const deviceId = socket.data.principal.id;
  const viewOf = (requestId: string) => registry.projection.get(requestId);
  const send = (events: readonly HostEvent[]) => {
    const fresh = events.filter((event) => event.seq > sentSeq);
    if (fresh.length === 0) return;
    // Asked at each batch: a role change or a removal applies from the event on, not from the next connection.
    const visible = visibility();
    if (fresh.some((event) => changesScope(registry, deviceId, event))) {
      // What this device may see changed (a question handed to or away from it, a role, a group): the events alone
      // cannot say it (its fold never had a question handed to it), so it gets its whole view again, which the app
      // takes at any time in place of what it had.
      const snapshot = remoteSnapshot(registry, deviceId, visible);
      sentSeq = snapshot.seq;
      socket.emit('snapshot', snapshot);
      return;
    }
    sentSeq = fresh[fresh.length - 1]?.seq ?? sentSeq;
    // A batch with nothing this device may see still goes, empty: it moves the device's seq on (a resume from it
    // replays nothing already skipped) and carries its own pending total.
    socket.emit('events', {
      events: eventsForRemotes(eventsVisibleTo(fresh, visible, viewOf)).map((event) =>
        redactEventForRemotes(event, viewOf),
      ),
      serverTime: new Date().toISOString(),
      pendingTotal: registry.projection.pendingCountFor(visible),
    });
  };
  const unsubscribe = registry.subscribe((events) => (live ? send(events) : held.push(...events)), { live: true });
  socket.on('disconnect', unsubscribe);

  const resume = socket.data.auth.resume;
  const headSeq = registry.projection.seq;
  const visible = visibility();
  // Another log's seq (a reset data dir, R10.6), or one ahead of this log: start over from a snapshot.
  const fromSnapshot =
    resume === undefined ||
    resume.logId !== registry.logId ||
    resume.lastSeq > headSeq ||
    headSeq - resume.lastSeq > MAX_REPLAY_EVENTS;
  if (fromSnapshot) {
    const snapshot = remoteSnapshot(registry, deviceId, visible);
    sentSeq = snapshot.seq;
    socket.emit('snapshot', snapshot);
  } else {
    const lastSeq = resume.lastSeq;
    sentSeq = lastSeq;
    for (
      let batch = await registry.readSince(sentSeq, REPLAY_BATCH);
      batch.length > 0;
      batch = await registry.readSince(sentSeq, REPLAY_BATCH)
    ) {
      send(batch);
    }
    // An empty batch still tells the remote that it is up to date, with the server's clock.
    if (sentSeq === lastSeq)
      socket.emit('events', {
        events: [],
        serverTime: new Date().toISOString(),
        pendingTotal: registry.projection.pendingCountFor(visible),
      });
  }
  live = true;
  send(held);
  return fromSnapshot ? 'snapshot' : 'resumed';
}

type Visible = (view: VisibleQuestion) => boolean;

/**
 * Whether an event changes which questions this device may see (R21.19, R21.18, R21.23), so its stream starts over
 * from a snapshot: a hand-over or a group's change for a device that does not see everything, its own person's
 * role change, its person's sign-in (their provider groups may have changed).
 */
function changesScope(registry: InteractionRegistry, deviceId: string, event: HostEvent): boolean {
  const projection = registry.projection;
  const personId = projection.devices.get(deviceId)?.personId;
  if (personId === undefined) return false;
  switch (event.type) {
    case 'person.role-changed':
      return event.personId === personId;
    case 'person.signed-in':
      return event.personId === personId && !projection.deviceSeesAll(deviceId);
    case 'interaction.handed-over':
    case 'group.saved':
    case 'group.removed':
      return !projection.deviceSeesAll(deviceId);
    default:
      return false;
  }
}

/** The machine list as this device may see it (R21.19). */
function machinesFor(registry: InteractionRegistry, deviceId: string, machines: readonly MachineInfo[]): MachineInfo[] {
  return scoped(machines, registry.projection.listScope(deviceId), 'machine');
}

/**
 * Which questions this device may see (R21.17), asked of the log as it is at each use; undefined when it sees every
 * one (a hub without people, an owner's or admin's device, one paired with the admin's pairing link).
 */
function visibleTo(registry: InteractionRegistry, deviceId: string): Visible | undefined {
  const projection = registry.projection;
  if (projection.deviceSeesAll(deviceId)) return undefined;
  return (view) => projection.deviceSees(deviceId, view);
}

/**
 * Whether this device may revoke a device or machine whose owner is `target` (R21.17, R21.19): the owner's and the
 * operator's devices any; an admin's any but the owner's (theirs, or nobody's: a link-paired device, a machine of
 * the hub's own invites); a member's device only its own person's.
 */
function mayManage(
  registry: InteractionRegistry,
  deviceId: string,
  target: { personId?: string | undefined; groupId?: string | undefined } | undefined,
): boolean {
  const projection = registry.projection;
  if (!target) return false;
  if (projection.deviceSeesAll(deviceId)) {
    if (projection.personOfDevice(deviceId)?.role !== 'admin') return true;
    if (target.personId === undefined) return target.groupId !== undefined;
    return projection.people.get(target.personId)?.role !== 'owner';
  }
  return target.personId !== undefined && target.personId === projection.devices.get(deviceId)?.personId;
}

/** The snapshot as remotes get it: secret answers masked (R18.5), only the questions this device may see (R21.17). */
function remoteSnapshot(registry: InteractionRegistry, deviceId: string, visible: Visible | undefined): Snapshot {
  const snapshot = registry.snapshot(visible);
  const scope = registry.projection.listScope(deviceId);
  return {
    ...snapshot,
    history: snapshot.history.map(redactViewForRemotes),
    devices: scoped(snapshot.devices, scope, 'device').map(deviceRecordForRemotes),
    machines: scoped(snapshot.machines, scope, 'machine'),
  };
}
