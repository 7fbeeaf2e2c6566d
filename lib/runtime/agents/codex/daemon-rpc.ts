import { realpathSync } from 'node:fs';
import WebSocket from 'ws';
import {
  BRIDGE_FRAME_MAX_BYTES,
  BRIDGE_REQUESTS_IN_FLIGHT_MAX,
  errorMessage,
  isRecord,
  parseBoundedJson,
} from '../../../contracts';

/** What Askaway calls itself to Codex (`initialize`'s clientInfo). */
export const BRIDGE_CLIENT_INFO = { name: 'askaway_bridge', title: 'Askaway bridge', version: '0.1.0' };

/** A JSON-RPC id as Codex sends it: server request ids are small integers, one counter per daemon process. */
export type RpcId = string | number;

export interface ServerRequest {
  id: RpcId;
  method: string;
  params: unknown;
}

export interface ServerNotification {
  method: string;
  params: unknown;
}

/** Too many of our requests already wait on the daemon (R12.19): this one was not sent. */
export class RpcBusyError extends Error {
  constructor(readonly method: string) {
    super(`${method}: ${BRIDGE_REQUESTS_IN_FLIGHT_MAX} requests already wait on the daemon`);
    this.name = 'RpcBusyError';
  }
}

/** Codex answered a request with an error. */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method}: ${message} (${code})`);
    this.name = 'RpcError';
  }
}

export interface DaemonRpcHandlers {
  onRequest(request: ServerRequest): void;
  onNotification(notification: ServerNotification): void;
  /** Once, when the socket closes for any reason (daemon stopped, restarted, or `close()`). */
  onClose(reason: string): void;
  /**
   * Once per connection, at the first frame refused unread (too deep, too many values, not JSON; R12.18): a
   * server request in it stays unanswered, so Codex's own terminal keeps it.
   */
  onRefused?(problem: string): void;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

/** The start of a response frame as Codex writes it: `{"id":12,"result":…` or `{"id":12,"error":…`. */
const RESPONSE_HEAD = /^\s*\{\s*"id"\s*:\s*(\d{1,15})\s*,\s*"(?:result|error)"/;

function isRpcId(value: unknown): value is RpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * One connection to a Codex daemon's control socket: WebSocket over the Unix socket, one JSON-RPC message
 * per text frame, without the `"jsonrpc"` member (Codex neither sends nor needs it). Our own request ids
 * and the server's are separate counters, so a response is matched only against our own requests.
 */
export class DaemonRpc {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { method: string; resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  private closedReason: string | null = null;
  private refusedSaid = false;

  private constructor(
    private readonly socket: WebSocket,
    private readonly handlers: DaemonRpcHandlers,
  ) {
    socket.on('message', (data, isBinary) => {
      if (!isBinary) this.receive(data.toString());
    });
    socket.on('close', (code, reason) =>
      this.closed(`the socket closed (${code}${reason.length ? ` ${reason}` : ''})`),
    );
    socket.on('error', (error) => this.closed(errorMessage(error)));
  }

  /**
   * Connects to the socket (the symlink is resolved: a Unix socket path is limited to ~108 bytes, and
   * Codex keeps the real one short under the temp dir). Rejects when nothing listens.
   */
  static connect(socketPath: string, handlers: DaemonRpcHandlers, timeoutMs = 5_000): Promise<DaemonRpc> {
    let target: string;
    try {
      target = realpathSync(socketPath);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const socket = new WebSocket(`ws+unix://${target}:/`, {
      handshakeTimeout: timeoutMs,
      perMessageDeflate: false,
      maxPayload: BRIDGE_FRAME_MAX_BYTES,
    });
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => {
        socket.removeAllListeners();
        socket.on('error', () => undefined);
        socket.terminate();
        reject(error);
      };
      socket.once('error', fail);
      socket.once('unexpected-response', (_request, response) =>
        fail(new Error(`the socket answered HTTP ${response.statusCode ?? '?'}`)),
      );
      socket.once('open', () => {
        socket.removeListener('error', fail);
        resolve(new DaemonRpc(socket, handlers));
      });
    });
  }

  get isClosed(): boolean {
    return this.closedReason !== null;
  }

  request(method: string, params?: unknown, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<unknown> {
    if (this.closedReason !== null) return Promise.reject(new Error(`${method}: ${this.closedReason}`));
    if (this.pending.size >= BRIDGE_REQUESTS_IN_FLIGHT_MAX) return Promise.reject(new RpcBusyError(method));
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      this.send(params === undefined ? { id, method } : { id, method, params });
    });
  }

  notify(method: string, params?: unknown): void {
    this.send(params === undefined ? { method } : { method, params });
  }

  /** Answers a server request (a question, an approval, an elicitation). */
  respond(id: RpcId, result: unknown): void {
    this.send({ id, result });
  }

  close(): void {
    this.closed('closed by the bridge');
    this.socket.close();
  }

  private send(message: Record<string, unknown>): void {
    if (this.closedReason !== null || this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(JSON.stringify(message));
  }

  private receive(text: string): void {
    // Shape-checked before anything walks it (R12.18): zod, JSON.stringify and schema checks recurse.
    const parsed = parseBoundedJson(text);
    if (!parsed.ok) return this.refuse(text, parsed.problem);
    const message = parsed.value;
    if (!isRecord(message)) return;
    const { id, method } = message;
    if (typeof method === 'string') {
      if (isRpcId(id)) this.handlers.onRequest({ id, method, params: message.params });
      else this.handlers.onNotification({ method, params: message.params });
      return;
    }
    // A response: only ever to one of our own requests, whose ids are numbers.
    if (typeof id !== 'number') return;
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    const error = message.error;
    if (isRecord(error))
      pending.reject(
        new RpcError(
          pending.method,
          typeof error.code === 'number' ? error.code : 0,
          typeof error.message === 'string' ? error.message : 'error',
        ),
      );
    else pending.resolve(message.result);
  }

  /**
   * A frame refused unread: said once per connection. A server request in it is left unanswered (Codex's terminal
   * keeps it); an answer to one of our requests fails that request now rather than at its timeout. Codex writes a
   * response's `id` first, so its head says whose it is without walking the rest.
   */
  private refuse(text: string, problem: string): void {
    if (!this.refusedSaid) this.handlers.onRefused?.(problem);
    this.refusedSaid = true;
    const head = RESPONSE_HEAD.exec(text.slice(0, 80));
    const id = head ? Number(head[1]) : undefined;
    const pending = id === undefined ? undefined : this.pending.get(id);
    if (id === undefined || !pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    pending.reject(new Error(`${pending.method}: the daemon's answer was refused: it ${problem}`));
  }

  private closed(reason: string): void {
    if (this.closedReason !== null) return;
    this.closedReason = reason;
    for (const { method, reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(new Error(`${method}: ${reason}`));
    }
    this.pending.clear();
    this.handlers.onClose(reason);
  }
}
