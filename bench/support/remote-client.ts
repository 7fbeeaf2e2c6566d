import { io, type Socket } from 'socket.io-client';
import {
  PROTOCOL_VERSION,
  REMOTE_NAMESPACE,
  type EventBatch,
  type InteractionResponse,
  type RemoteClientToServerEvents,
  type RemoteServerToClientEvents,
  type RespondAck,
  type Snapshot,
} from '../../lib/contracts';

export type RemoteSocket = Socket<RemoteServerToClientEvents, RemoteClientToServerEvents>;

/** A Node remote on '/remote', as the PWA's connection is (websocket first). */
export async function connectRemote(
  url: string,
  token: string,
  deviceId = 'bench-remote',
): Promise<{ socket: RemoteSocket; first: Snapshot | EventBatch }> {
  const socket: RemoteSocket = io(`${url}${REMOTE_NAMESPACE}`, {
    auth: { token, protocolVersion: PROTOCOL_VERSION, device: { id: deviceId, label: 'Bench' } },
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
