import { io, type Socket } from 'socket.io-client';
import {
  RUNTIME_NAMESPACE,
  type RuntimeAuth,
  type RuntimeClientToServerEvents,
  type RuntimeServerToClientEvents,
} from '../contracts';
import { classifyConnectError, HostConnectionError, unreachableError } from './errors';

export type RuntimeSocket = Socket<RuntimeServerToClientEvents, RuntimeClientToServerEvents>;

const SERVER_DISCONNECT_RETRY_MS = 500;

export interface HostLinkOptions {
  url: string;
  auth: RuntimeAuth;
  /** Accept a self-signed certificate: only for a host reaching itself over loopback. */
  insecureTls?: boolean;
  /** The joined hub's name, for messages that name it (R17.6). */
  hubName?: string;
}

/** What the link tells its owner; called in this order for each change. */
export interface HostLinkEvents {
  connected(): void;
  disconnected(): void;
  /** The host refused this runtime for good (wrong token, protocol mismatch): no more retries. */
  refused(error: HostConnectionError): void;
}

/**
 * The socket to the host's '/runtime' namespace, kept open: socket.io retries
 * transport trouble, and this retries after a server-side disconnect too (a
 * host restarting, R8.1), until the host refuses the runtime or it is closed.
 */
export class HostLink {
  readonly socket: RuntimeSocket;
  private refusal: HostConnectionError | null = null;
  private lastTransportError: string | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(
    private readonly options: HostLinkOptions,
    events: HostLinkEvents,
  ) {
    this.socket = io(`${options.url}${RUNTIME_NAMESPACE}`, {
      auth: options.auth,
      transports: ['websocket'],
      // Its own connection: a host dropping another client in this process must not drop this one.
      forceNew: true,
      reconnectionDelay: 250,
      reconnectionDelayMax: 2_000,
      ...(options.insecureTls ? { rejectUnauthorized: false } : {}),
    });
    this.socket.on('connect', () => {
      this.lastTransportError = undefined;
      events.connected();
    });
    this.socket.on('disconnect', (reason) => {
      events.disconnected();
      // socket.io gives up after a server-side disconnect (e.g. a host shutting down);
      // a runtime waiting on answers keeps trying, the host may come back (R8.1).
      if (reason === 'io server disconnect' && !this.closed && !this.refusal) {
        this.retryTimer = setTimeout(() => this.socket.connect(), SERVER_DISCONNECT_RETRY_MS);
      }
    });
    this.socket.on('connect_error', (error: Error & { data?: unknown }) => {
      const refusal = classifyConnectError(options.url, error, options.hubName);
      if (refusal instanceof HostConnectionError) {
        this.refusal = refusal;
        this.socket.disconnect();
        events.refused(refusal);
      } else {
        this.lastTransportError = refusal;
      }
    });
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  /** Set once the host refused this runtime for good. */
  get failure(): HostConnectionError | null {
    return this.refusal;
  }

  /** Resolves once connected; rejects with the refusal, or as unreachable after `timeoutMs`. */
  ready(timeoutMs: number): Promise<void> {
    if (this.socket.connected) return Promise.resolve();
    if (this.refusal) return Promise.reject(this.refusal);
    if (this.closed) return Promise.reject(closedError());
    return new Promise<void>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        this.socket.off('connect', onConnect);
        this.socket.off('connect_error', onError);
      };
      const onConnect = () => {
        cleanup();
        resolve();
      };
      const onError = () => {
        // The constructor's connect_error handler, registered first, has already classified the error.
        if (!this.refusal) return;
        cleanup();
        reject(this.refusal);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(unreachableError(this.options.url, this.lastTransportError, this.options.hubName));
      }, timeoutMs);
      this.socket.on('connect', onConnect);
      this.socket.on('connect_error', onError);
    });
  }

  /** No more reconnecting; `disconnect()` follows once what is in flight has gone out. */
  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
  }

  disconnect(): void {
    this.socket.disconnect();
  }
}

export function closedError(): HostConnectionError {
  return new HostConnectionError('closed', 'The host connection is closed');
}
