import { io, type Socket } from 'socket.io-client';
import {
  PROTOCOL_VERSION,
  REMOTE_NAMESPACE,
  type InteractionResponse,
  type PreferencesPatch,
  type RemoteClientToServerEvents,
  type RemoteServerToClientEvents,
  type RespondAck,
} from '../../lib/contracts';

type RemoteSocket = Socket<RemoteServerToClientEvents, RemoteClientToServerEvents>;

/** Another device, without a browser: answers and changes preferences over '/remote'. */
export class RemoteClient {
  private readonly socket: RemoteSocket;
  private counter = 0;

  constructor(url: string, token: string, device = { id: 'other-device', label: 'Work laptop' }) {
    this.socket = io(`${url}${REMOTE_NAMESPACE}`, {
      auth: { token, protocolVersion: PROTOCOL_VERSION, device },
      transports: ['websocket'],
    });
  }

  respond(requestId: string, response: InteractionResponse): Promise<RespondAck> {
    this.counter += 1;
    const command = { requestId, clientResponseId: `remote-${Date.now()}-${this.counter}`, response };
    return new Promise((resolve, reject) =>
      this.socket
        .timeout(5_000)
        .emit('respond', command, (error: Error | null, ack: RespondAck) => (error ? reject(error) : resolve(ack))),
    );
  }

  setPreferences(patch: PreferencesPatch): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.socket
        .timeout(5_000)
        .emit('preferences:update', patch, (error: Error | null, ack: unknown) =>
          error ? reject(error) : resolve(ack),
        ),
    );
  }

  close(): void {
    this.socket.disconnect();
  }
}
