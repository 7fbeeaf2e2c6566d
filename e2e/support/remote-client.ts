import { io, type Socket } from 'socket.io-client';
import {
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
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

  /** `credential`: a paired device's (`host.pairDevice()`). */
  constructor(url: string, credential: string) {
    this.socket = io(`${url}${REMOTE_NAMESPACE}`, {
      auth: { credential, protocolVersion: REMOTE_PROTOCOL_VERSION },
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
