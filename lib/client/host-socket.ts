import { type PendingMoreCommand, type PreferencesPatch, type RemoteAuth, type RespondCommand } from '../contracts';
import { type Pairing } from './pairing';

/** An ack, or the error socket.io gives when none came in time or the socket dropped meanwhile. */
export type AckCallback = (error: Error | null, raw: unknown) => void;

/** socket.io's `socket.timeout(ms)`: emits whose ack is bounded in time. */
export interface TimedEmitter {
  emit(event: 'respond', command: RespondCommand, ack: AckCallback): unknown;
  emit(event: 'preferences:update', patch: PreferencesPatch, ack: AckCallback): unknown;
  emit(event: 'snapshot:get', ack: AckCallback): unknown;
  emit(event: 'pending:more', command: PendingMoreCommand, ack: AckCallback): unknown;
}

/** The part of socket.io-client's socket the connection uses (a fake one in unit tests). */
export interface HostSocket {
  readonly connected: boolean;
  on(event: 'connect', listener: () => void): unknown;
  /** `reason` as socket.io gives it; `io server disconnect` means the host closed it (a revocation). */
  on(event: 'disconnect', listener: (reason: string) => void): unknown;
  on(event: 'connect_error', listener: (error: Error & { data?: unknown }) => void): unknown;
  on(event: 'snapshot' | 'events' | 'machines', listener: (raw: unknown) => void): unknown;
  connect(): unknown;
  disconnect(): unknown;
  removeAllListeners(): unknown;
  timeout(ms: number): TimedEmitter;
}

/**
 * Opens a socket to the host's remote namespace at `url` (socket.io reconnects it on its own,
 * with backoff). `auth` is read again on every (re)connect, so a reconnect can resume from lastSeq.
 * `pairing`: whose socket it is (the socket <head> opened early belongs to one pairing only).
 */
export type OpenSocket = (
  url: string,
  auth: () => RemoteAuth,
  pairing: Pick<Pairing, 'hostUrl' | 'credential'>,
) => HostSocket;
