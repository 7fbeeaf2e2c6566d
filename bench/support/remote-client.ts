import { io, type Socket } from 'socket.io-client';
import {
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
  type EventBatch,
  type InteractionResponse,
  type RemoteClientToServerEvents,
  type RemoteServerToClientEvents,
  type RespondAck,
  type Snapshot,
  type PairResponse,
} from '../../lib/contracts';
import { pairOverHttp } from '../../lib/host/test-support/devices';

/** Pairs a device with a bench host over HTTP, as `askaway pair` and the app do (R16.2). */
export function pairBenchDevice(host: { url: string; dataDir: string }, name: string): Promise<PairResponse> {
  return pairOverHttp(host.url, host.dataDir, name);
}

export type RemoteSocket = Socket<RemoteServerToClientEvents, RemoteClientToServerEvents>;

/** A Node remote on '/remote', as the PWA's connection is (websocket first); `credential` from `pairBenchDevice`. */
export async function connectRemote(
  url: string,
  credential: string,
): Promise<{ socket: RemoteSocket; first: Snapshot | EventBatch }> {
  const socket: RemoteSocket = io(`${url}${REMOTE_NAMESPACE}`, {
    auth: { credential, protocolVersion: REMOTE_PROTOCOL_VERSION },
    transports: ['websocket'],
    reconnection: false,
  });
  const first = await new Promise<Snapshot | EventBatch>((resolve, reject) => {
    socket.once('snapshot', resolve);
    socket.once('events', resolve);
    socket.once('connect_error', reject);
  });
  return { socket, first };
}

/**
 * A plain device socket on '/remote' once connected (a fresh connection each time, so a remote's message budget
 * starts anew), for drills that send what the typed events refuse.
 */
export function connectDevice(host: { url: string }, credential: string): Promise<Socket> {
  const socket = io(`${host.url}${REMOTE_NAMESPACE}`, {
    auth: { credential, protocolVersion: REMOTE_PROTOCOL_VERSION },
    forceNew: true,
    transports: ['websocket'],
    reconnection: false,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** Answers every `interaction.requested` it sees with `response`. */
export function answerEverything(
  socket: RemoteSocket,
  response: InteractionResponse,
  onAck?: (ack: RespondAck) => void,
): void {
  let counter = 0;
  socket.on('events', (batch: EventBatch) => {
    for (const event of batch.events) {
      if (event.type !== 'interaction.requested') continue;
      counter += 1;
      socket.emit(
        'respond',
        { requestId: event.interaction.requestId, clientResponseId: `answer-${counter}`, response },
        (ack: RespondAck) => onAck?.(ack),
      );
    }
  });
}
