import { io, type Socket } from 'socket.io-client';
import {
  PROTOCOL_VERSION,
  RUNTIME_NAMESPACE,
  type AnnounceAck,
  type InteractionRequest,
  type RuntimeClientToServerEvents,
  type RuntimeServerToClientEvents,
} from '../../lib/contracts';

export type RawRuntimeSocket = Socket<RuntimeServerToClientEvents, RuntimeClientToServerEvents>;

/** A bare '/runtime' socket, for seeding pending interactions and for hostile input. */
export async function connectRawRuntime(
  url: string,
  token: string,
  runtimeId = 'bench-seeder',
): Promise<RawRuntimeSocket> {
  const socket: RawRuntimeSocket = io(`${url}${RUNTIME_NAMESPACE}`, {
    auth: { token, protocolVersion: PROTOCOL_VERSION, runtimeId },
    transports: ['websocket'],
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Announces every request (in windows of 100 in flight) and leaves them pending. */
export async function seedPending(url: string, token: string, requests: readonly InteractionRequest[]): Promise<void> {
  // Each connection may open DEFAULT_NEW_INTERACTION_LIMIT's burst of new interactions at once (R12.7).
  for (let start = 0; start < requests.length; start += SEED_PER_CONNECTION) {
    const socket = await connectRawRuntime(url, token, `seeder-${start}`);
    try {
      await announceAll(socket, requests.slice(start, start + SEED_PER_CONNECTION));
    } finally {
      socket.disconnect();
    }
  }
}

const SEED_PER_CONNECTION = 100;

/** Announces `requests` on a runtime connection the caller keeps (an agent that stays while its questions wait). */
export async function announceAll(socket: RawRuntimeSocket, requests: readonly InteractionRequest[]): Promise<void> {
  for (let start = 0; start < requests.length; start += 100) {
    const acks = await Promise.all(
      requests
        .slice(start, start + 100)
        .map((request) => socket.timeout(30_000).emitWithAck('announce', request) as Promise<AnnounceAck>),
    );
    const refused = acks.find((ack) => !ack.ok || ack.status !== 'pending');
    if (refused) throw new Error(`seeding: the host did not take an announce: ${JSON.stringify(refused)}`);
  }
}
