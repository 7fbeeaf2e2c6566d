import { WebSocket as EngineWebSocket } from 'engine.io-client';
import { EARLY_NAMESPACE, type EarlySocket } from './early-answer';

// socket.io-client takes over the socket the inline script in <head> opened (./socket-prefetch.ts): its
// websocket transport gets that socket instead of a new one, the messages the host sent meanwhile are handed
// to it in order, and the namespace connect the script already sent is not sent twice. Every later
// (re)connect opens its own socket as usual. R13.8: on a reload the snapshot is here when the connection is.

type Handler = ((event: unknown) => void) | null;

/** WebSocket's readyState values (not read from the global: tests run where there is none). */
const OPEN = 1;

/** Runs `work` in a task of its own, soon (a message to itself, not a timer: background tabs throttle those). */
function nextTask(work: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    work();
  };
  channel.port2.postMessage(null);
}

/** The early socket for this pairing, once; another pairing's, or one that closed, is closed and forgotten. */
function takeEarlySocket(hostUrl: string, credential: string): EarlySocket | null {
  const early = typeof window === 'undefined' ? undefined : window.__askawaySocket;
  if (!early) return null;
  window.__askawaySocket = undefined;
  const usable = early.hostUrl === hostUrl && early.credential === credential && !early.closed;
  if (usable && early.ws.readyState <= OPEN) return early;
  early.ws.onmessage = null;
  early.ws.close();
  return null;
}

/**
 * The browser socket as engine.io's transport uses it (its `on…` handlers, `send`, `close`, `binaryType`). Open
 * already: `onopen` fires as soon as the transport has set its handlers, then the kept messages. Still opening:
 * nothing was sent or kept yet, and socket.io-client connects the namespace itself.
 */
export class AdoptedSocket {
  private dropConnect: boolean;
  private deliver: Handler = null;
  /** Messages that arrive before the kept ones are handed over wait here, behind them. */
  private readonly queue: unknown[] = [];
  private draining = false;

  constructor(private readonly early: EarlySocket) {
    this.dropConnect = early.sent;
    early.ws.onmessage = null;
  }

  get readyState(): number {
    return this.early.ws.readyState;
  }
  get binaryType(): BinaryType {
    return this.early.ws.binaryType;
  }
  set binaryType(value: BinaryType) {
    this.early.ws.binaryType = value;
  }
  set onopen(handler: Handler) {
    if (this.early.ws.readyState !== OPEN) {
      this.early.ws.onopen = handler;
      return;
    }
    // The transport sets onopen first, then onclose, onmessage, onerror (engine.io-client 6): open and replay
    // once they are all in place, in a task of their own: the snapshot's parse and render do not lengthen the task
    // that evaluated the connection's code (long tasks are what Lighthouse's TBT counts, R13.5).
    this.draining = true;
    nextTask(() => {
      handler?.({});
      const kept = this.early.messages.splice(0);
      // What arrived meanwhile waited behind them.
      kept.push(...this.queue.splice(0));
      this.draining = false;
      for (const data of kept) this.deliver?.(new MessageEvent('message', { data }));
    });
  }
  set onclose(handler: Handler) {
    this.early.ws.onclose = handler;
  }
  set onmessage(handler: Handler) {
    this.deliver = handler;
    this.early.ws.onmessage = (event: MessageEvent) => {
      // Behind the kept ones while they are handed over.
      if (this.draining) this.queue.push(event.data);
      else handler?.(event);
    };
  }
  set onerror(handler: Handler) {
    this.early.ws.onerror = handler;
  }
  send(data: string | Blob | BufferSource): void {
    // socket.io-client connects the namespace once the engine is open; the inline script already has.
    if (this.dropConnect && typeof data === 'string' && data.startsWith(`40${EARLY_NAMESPACE}`)) {
      this.dropConnect = false;
      return;
    }
    this.early.ws.send(data);
  }
  close(): void {
    this.early.ws.close();
  }
}

/** The early socket of this pairing, taken over (once), or null: then the transport opens its own. */
export function adoptEarlySocket(hostUrl: string, credential: string): AdoptedSocket | null {
  const early = takeEarlySocket(hostUrl, credential);
  return early ? new AdoptedSocket(early) : null;
}

/** socket.io-client's websocket transport, adopting the early socket of this pairing when there is one. */
export function earlyWebSocketTransport(hostUrl: string, credential: string): typeof EngineWebSocket {
  return class EarlyWebSocket extends EngineWebSocket {
    override createSocket(uri: string, protocols: string | string[] | undefined, opts: Record<string, unknown>) {
      return adoptEarlySocket(hostUrl, credential) ?? super.createSocket(uri, protocols, opts);
    }
  };
}
