import { type RemoteAuth } from '../../contracts';
import { type HostSocket, type TimedEmitter } from '../host-socket';

type Listener = (...args: never[]) => void;

/** An emit the connection made and the fake host has not answered yet. */
export interface PendingEmit {
  event: string;
  /** The payload (absent for `snapshot:get`). */
  payload: unknown;
  /** Answers the ack as the host would. */
  reply(raw: unknown): void;
}

interface Waiting extends PendingEmit {
  fail(error: Error): void;
}

/**
 * A socket.io client socket without a network, for unit tests under fake timers. It behaves
 * as socket.io-client 4 does where the connection relies on it: `auth` is read on every
 * connect, a timed ack fails after its timeout, and every unanswered ack fails at once when the
 * socket drops. The test plays the host: `accept()`, `refuse()`, `drop()`, `send()`, `reply()`.
 */
export class FakeHostSocket implements HostSocket {
  connected = false;
  /** The auth sent with each connect, in order. */
  readonly handshakes: RemoteAuth[] = [];
  /** Every emit, answered or not. */
  readonly emitted: PendingEmit[] = [];
  connectCalls = 0;
  private readonly listeners = new Map<string, Listener[]>();
  private readonly waiting = new Set<Waiting>();

  constructor(
    readonly url: string,
    private readonly auth: () => RemoteAuth,
  ) {}

  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  connect(): this {
    this.connectCalls += 1;
    return this;
  }

  disconnect(): this {
    this.close();
    return this;
  }

  removeAllListeners(): this {
    this.listeners.clear();
    return this;
  }

  timeout(ms: number): TimedEmitter {
    return {
      emit: (event: string, ...args: unknown[]) => {
        const ack = args.pop();
        if (typeof ack !== 'function') throw new Error(`emit('${event}') without an ack`);
        // socket.io would buffer it until the next connect; the connection never relies on that.
        if (!this.connected) throw new Error(`emit('${event}') on a disconnected socket`);
        const settle = (error: Error | null, raw?: unknown) => {
          if (!this.waiting.delete(entry)) return;
          clearTimeout(timer);
          Reflect.apply(ack, undefined, [error, raw]);
        };
        const entry: Waiting = {
          event,
          payload: args[0],
          reply: (raw) => settle(null, raw),
          fail: (error) => settle(error),
        };
        const timer = setTimeout(() => settle(new Error('operation has timed out')), ms);
        this.waiting.add(entry);
        this.emitted.push(entry);
      },
    };
  }

  /* -------------------------------------------------------------- the host's side */

  /** The host accepts the handshake: reads `auth` as socket.io does on every (re)connect. */
  accept(): RemoteAuth {
    const auth = this.auth();
    this.handshakes.push(auth);
    this.connected = true;
    this.fire('connect');
    return auth;
  }

  /** The host (or the network) refuses the handshake. */
  refuse(message: string, data?: unknown): void {
    this.fire('connect_error', Object.assign(new Error(message), data === undefined ? {} : { data }));
  }

  /** The transport closed (network gone, host stopped). */
  drop(): void {
    this.close();
  }

  /** The host closed this connection itself (a revoked device): socket.io does not reconnect on its own then. */
  kick(): void {
    this.close('io server disconnect');
  }

  send(event: 'snapshot' | 'events' | 'machines', raw: unknown): void {
    this.fire(event, raw);
  }

  /** Unanswered emits of this event, oldest first. */
  pending(event: string): PendingEmit[] {
    return [...this.waiting].filter((entry) => entry.event === event);
  }

  private close(reason = 'transport close'): void {
    if (!this.connected) return;
    this.connected = false;
    for (const entry of [...this.waiting]) entry.fail(new Error('socket has been disconnected'));
    this.fire('disconnect', reason);
  }

  private fire(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) Reflect.apply(listener, undefined, args);
  }
}
