import { io, type ManagerOptions, type Socket } from 'socket.io-client';
import {
  PROTOCOL_VERSION,
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
  RUNTIME_NAMESPACE,
  type EventBatch,
  type HostEvent,
  type MachineInfo,
  type RemoteClientToServerEvents,
  type RemoteServerToClientEvents,
  type ResolvedNotice,
  type RuntimeClientToServerEvents,
  type RuntimeServerToClientEvents,
  type Snapshot,
  type AutoResolutionNotice,
} from '../../contracts';
import { type Host } from '../create-host';
import { pairDevice } from './devices';

export type RuntimeClient = Socket<RuntimeServerToClientEvents, RuntimeClientToServerEvents>;
export type RemoteClient = Socket<RemoteServerToClientEvents, RemoteClientToServerEvents>;

const sockets = new Set<Socket>();

/** Disconnects every test client opened since the last call. */
export function closeAllClients(): void {
  for (const socket of sockets) socket.disconnect();
  sockets.clear();
}

/** TLS tests use a throwaway self-signed cert. */
const clientOptions = (url: string) => (url.startsWith('https') ? { rejectUnauthorized: false } : {});

/**
 * Settles on the first connect or connect_error, then takes both listeners off: a connect_error
 * listener left behind would disconnect a reconnecting socket at its first failed attempt.
 */
function connected<S extends Socket>(socket: S): Promise<S> {
  sockets.add(socket);
  return new Promise((resolve, reject) => {
    const onConnect = () => {
      socket.off('connect_error', onError);
      resolve(socket);
    };
    const onError = (error: Error) => {
      socket.off('connect', onConnect);
      socket.disconnect();
      reject(error);
    };
    socket.once('connect', onConnect);
    socket.once('connect_error', onError);
  });
}

/**
 * A runtime as the runtime helper's connection would be, recording what the host sends. With `reconnect`
 * it has a connection of its own that comes back by itself after the host restarts, as the helper's does;
 * without, it shares one with the other clients of that URL and stays down once the host goes.
 */
export async function connectRuntime(
  url: string,
  token: string,
  runtimeId = 'test-runtime',
  options: { reconnect?: Pick<ManagerOptions, 'reconnectionDelay' | 'reconnectionDelayMax'> } = {},
) {
  const { reconnect } = options;
  const socket: RuntimeClient = io(`${url}${RUNTIME_NAMESPACE}`, {
    auth: { token, protocolVersion: PROTOCOL_VERSION, runtimeId },
    transports: ['websocket'],
    ...(reconnect === undefined ? { reconnection: false } : { ...reconnect, forceNew: true, reconnection: true }),
    ...clientOptions(url),
  });
  const resolved: ResolvedNotice[] = [];
  const autoResolutions: AutoResolutionNotice[] = [];
  socket.on('resolved', (notice) => resolved.push(notice));
  socket.on('auto-resolution', (notice) => autoResolutions.push(notice));
  await connected(socket);
  return { socket, resolved, autoResolutions };
}

/**
 * A remote that folds what it receives the way a PWA would: snapshot, then events by seq.
 * `credential` is a paired device's (see `pairDevice`); `resume` asks for what it missed.
 */
export async function connectRemote(
  url: string,
  credential: string,
  options: { resume?: { logId: string; lastSeq: number } } = {},
) {
  const auth: Record<string, unknown> = { credential, protocolVersion: REMOTE_PROTOCOL_VERSION };
  if (options.resume !== undefined) auth.resume = options.resume;
  const socket: RemoteClient = io(`${url}${REMOTE_NAMESPACE}`, {
    auth,
    transports: ['websocket'],
    reconnection: false,
    ...clientOptions(url),
  });
  const state = {
    socket,
    snapshots: [] as Snapshot[],
    batches: [] as EventBatch[],
    events: [] as HostEvent[],
    /** Every `machines` list received, oldest first (R17.5). */
    machineLists: [] as MachineInfo[][],
  };
  socket.on('machines', (list) => state.machineLists.push(list.machines));
  // The host always sends a snapshot or a (possibly empty) batch first; wait for it.
  const synced = new Promise<void>((resolve) => {
    socket.on('snapshot', (snapshot) => {
      state.snapshots.push(snapshot);
      resolve();
    });
    socket.on('events', (batch) => {
      state.batches.push(batch);
      state.events.push(...batch.events);
      resolve();
    });
  });
  await connected(socket);
  await synced;
  return state;
}

/** Connects with raw auth and returns the refusal's `data`, or 'connected'. */
export function tryConnect(url: string, namespace: string, auth: unknown): Promise<unknown> {
  const socket = io(`${url}${namespace}`, {
    auth: auth as Record<string, unknown>,
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.add(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => {
      socket.disconnect();
      resolve('connected');
    });
    socket.once('connect_error', (error) => resolve((error as Error & { data?: unknown }).data ?? error.message));
  });
}

/**
 * Pairs a device in-process and opens a plain connection of its own to '/remote' (untyped, so a test can send
 * what the typed events would refuse), with its id as the host sees it. Its disconnect goes on `cleanups` before
 * it connects, so a refused one is closed too.
 */
export async function connectPairedDevice(
  host: Pick<Host, 'devices' | 'url'>,
  name: string,
  cleanups: { push(cleanup: () => void): unknown },
): Promise<Socket & { deviceId: string }> {
  const { deviceId, credential } = await pairDevice(host, name);
  const socket = io(`${host.url}${REMOTE_NAMESPACE}`, {
    auth: { credential, protocolVersion: REMOTE_PROTOCOL_VERSION },
    transports: ['websocket'],
    reconnection: false,
  });
  cleanups.push(() => void socket.disconnect());
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return Object.assign(socket, { deviceId });
}
