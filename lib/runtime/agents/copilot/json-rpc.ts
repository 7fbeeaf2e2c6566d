// JSON-RPC 2.0 over one TCP connection with LSP's `Content-Length` framing: how Copilot's `--ui-server` port
// speaks. A client only: requests out, results and notifications in; a request Copilot sends this client is
// refused as unknown (the bridge registers no handlers, so Copilot asks it nothing it needs).
import net from 'node:net';
import { errorMessage, parseBoundedJson } from '../../../contracts';

/**
 * Largest message read (R12.19). Copilot's events carry whole diffs and tool output, but the bridge carries only
 * prompts, and the host takes no message over 256 KiB (a card's diff is cut to 60 KB): a bigger frame is skipped
 * as it streams past, never held, and the connection goes on. 16 MiB keeps a prompt for a large file whole.
 */
export const RPC_MESSAGE_MAX = 16 * 1024 * 1024;
/** A frame's header (`Content-Length: n`, perhaps `Content-Type`): anything longer is not Copilot speaking. */
export const RPC_HEADER_MAX = 8_192;
/** Bytes of refusals to Copilot's own requests left unread by it, past which it gets no more. */
const REPLY_BACKLOG_MAX = 1024 * 1024;
/** How long one call may take (they are in-process calls in Copilot: milliseconds). */
export const RPC_CALL_TIMEOUT_MS = 10_000;

export class RpcError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export interface RpcConnection {
  /** This end's port: with Copilot's, it names the connection in /proc/net/tcp (peer-process.ts). */
  readonly localPort: number;
  call(method: string, params: unknown, timeoutMs?: number): Promise<unknown>;
  /** `bytes`: the message's size on the wire (what holding it costs, at most). */
  onNotification(handler: (method: string, params: unknown, bytes: number) => void): void;
  /** Called once when the connection ends, whoever ended it. */
  onClose(handler: () => void): void;
  close(): void;
}

interface Message {
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

/** A message the reader refused whole: why, and what it was as far as its first bytes say (for the log). */
export interface RefusedMessage {
  problem: string;
  /** `method`, event `type` and `requestId` read from the frame's first bytes, when there. */
  label: string;
  /** A numeric `id` near the start: the call it answers, which then fails at once instead of timing out. */
  id?: number;
}

/** What a refused frame was, from its first bytes only: it cannot be walked, and a log line names it. */
function labelOf(head: string): { label: string; id?: number } {
  const field = (name: string) => new RegExp(`"${name}"\\s*:\\s*"([\\w./:-]{1,100})"`).exec(head)?.[1];
  const parts = [field('method'), field('type'), field('requestId')].filter((part) => part !== undefined);
  const id = /^\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(\d{1,15})\s*,/.exec(head)?.[1];
  return { label: parts.length > 0 ? parts.join(' ') : 'a message', ...(id ? { id: Number(id) } : {}) };
}

/**
 * Splits a byte stream into framed messages (R12.18, R12.19) in time linear in its length: a header is looked for
 * only in bytes not yet searched, a body's chunks are kept as they come and joined once, and a body over
 * RPC_MESSAGE_MAX is skipped as it streams past. Each body passes parseBoundedJson before anything reads it; one
 * over BRIDGE_MESSAGE_SHAPE_LIMITS goes to `refused`. `bad` is told of a frame it cannot read.
 */
export function frameReader(
  onMessage: (message: Message, bytes: number) => void,
  /** `fatal`: nothing after it can be framed; the reader ignores the rest and the caller should hang up. */
  bad: (problem: string, fatal?: boolean) => void,
  refused: (message: RefusedMessage) => void = (message) => bad(`${message.label} that ${message.problem}`),
) {
  let head: Buffer = Buffer.alloc(0);
  let parts: Buffer[] = [];
  let have = 0;
  /** Bytes the body being read still needs (or, skipping, still to pass over); -1 between frames. */
  let need = -1;
  let skipping = false;
  let broken = false;

  const deliver = (body: Buffer) => {
    const text = body.toString('utf8');
    const parsed = parseBoundedJson(text);
    if (!parsed.ok) {
      if (parsed.problem === 'is not JSON') bad('a message that is not JSON');
      else refused({ problem: parsed.problem, ...labelOf(text.slice(0, 1_024)) });
      return;
    }
    const message = parsed.value;
    if (typeof message === 'object' && message !== null && !Array.isArray(message))
      onMessage(message as Message, body.length);
  };

  return (input: Buffer) => {
    let chunk = input;
    while (!broken && chunk.length > 0) {
      if (need >= 0) {
        const take = Math.min(need - have, chunk.length);
        if (!skipping) parts.push(chunk.subarray(0, take));
        have += take;
        chunk = chunk.subarray(take);
        if (have < need) return;
        const body = parts.length === 1 ? (parts[0] ?? Buffer.alloc(0)) : Buffer.concat(parts, have);
        const done = skipping;
        parts = [];
        have = 0;
        need = -1;
        skipping = false;
        if (!done) deliver(body);
        continue;
      }
      const searchFrom = Math.max(0, head.length - 3);
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      chunk = Buffer.alloc(0);
      const end = head.indexOf('\r\n\r\n', searchFrom);
      if (end < 0 ? head.length > RPC_HEADER_MAX : end > RPC_HEADER_MAX) {
        broken = true;
        bad(`a header longer than ${RPC_HEADER_MAX} bytes`, true);
        return;
      }
      if (end < 0) return;
      const header = head.subarray(0, end).toString('ascii');
      const length = /(?:^|\r\n)content-length:[ \t]*(\d{1,15})[ \t]*(?:\r\n|$)/i.exec(header)?.[1];
      chunk = head.subarray(end + 4);
      head = Buffer.alloc(0);
      if (length === undefined) {
        broken = true;
        bad('a frame without Content-Length', true);
        return;
      }
      need = Number(length);
      if (need > RPC_MESSAGE_MAX) {
        skipping = true;
        bad(`a message of ${need} bytes, over ${RPC_MESSAGE_MAX}: skipped, not carried to the phone`);
      }
      if (need === 0) {
        need = -1;
        skipping = false;
        bad('an empty message');
      }
    }
  };
}

export function frame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

/** Connects to `127.0.0.1:port`; rejects when nothing listens there (yet). */
export function connectRpc(port: number, log: (line: string) => void): Promise<RpcConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
    const notificationHandlers: ((method: string, params: unknown, bytes: number) => void)[] = [];
    const closeHandlers: (() => void)[] = [];
    let nextId = 1;
    let open = false;
    let closed = false;

    const onMessage = (message: Message, bytes: number) => {
      if (typeof message.method === 'string') {
        const method = message.method.slice(0, 100);
        if (message.id !== undefined) {
          // Only an id a real request has is echoed: a huge one would cost a copy each time it came. A peer that
          // sends requests and reads no answers fills this end's buffer: past REPLY_BACKLOG_MAX it gets none (R12.19).
          const id = message.id;
          if (socket.writableLength > REPLY_BACKLOG_MAX) return;
          if (typeof id === 'number' || (typeof id === 'string' && id.length <= 200))
            socket.write(frame({ jsonrpc: '2.0', id, error: { code: -32601, message: `Unhandled method ${method}` } }));
          return;
        }
        for (const handler of notificationHandlers) {
          // A handler's mistake is one message lost, never an exception out of the socket's 'data' (R12.18).
          try {
            handler(message.method, message.params, bytes);
          } catch (error) {
            log(`askaway: Copilot's ${method} could not be read: ${errorMessage(error)}`);
          }
        }
        return;
      }
      if (typeof message.id !== 'number') return;
      const waiter = pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.error)
        waiter.reject(
          new RpcError(
            typeof message.error.message === 'string' ? message.error.message : 'error',
            typeof message.error.code === 'number' ? message.error.code : undefined,
          ),
        );
      else waiter.resolve(message.result);
    };
    const refused = (message: RefusedMessage) => {
      const waiter = message.id === undefined ? undefined : pending.get(message.id);
      if (waiter && message.id !== undefined) {
        pending.delete(message.id);
        waiter.reject(new RpcError(`Copilot's answer ${message.problem}`));
        return;
      }
      log(
        `askaway: Copilot sent ${message.label} that ${message.problem}: not carried to the phone, it stays in Copilot's own UI`,
      );
    };
    socket.on(
      'data',
      frameReader(
        onMessage,
        (problem, fatal) => {
          log(`askaway: Copilot sent ${problem}${fatal ? '; the bridge hangs up' : ''}`);
          if (fatal) socket.destroy();
        },
        refused,
      ),
    );
    const finish = () => {
      if (closed) return;
      closed = true;
      for (const waiter of pending.values()) waiter.reject(new RpcError('the connection to Copilot closed'));
      pending.clear();
      if (open) for (const handler of closeHandlers) handler();
    };
    socket.on('error', (error) => {
      if (!open) reject(error);
      finish();
    });
    socket.on('close', finish);
    socket.on('connect', () => {
      open = true;
      socket.setNoDelay(true);
      resolve({
        localPort: socket.localPort ?? 0,
        call(method, params, timeoutMs = RPC_CALL_TIMEOUT_MS) {
          if (closed) return Promise.reject(new RpcError('the connection to Copilot is closed'));
          const callId = nextId;
          nextId += 1;
          return new Promise((resolveCall, rejectCall) => {
            const timer = setTimeout(() => {
              pending.delete(callId);
              rejectCall(new RpcError(`${method}: no answer from Copilot within ${timeoutMs} ms`));
            }, timeoutMs);
            pending.set(callId, {
              resolve: (value) => {
                clearTimeout(timer);
                resolveCall(value);
              },
              reject: (error) => {
                clearTimeout(timer);
                rejectCall(error);
              },
            });
            socket.write(frame({ jsonrpc: '2.0', id: callId, method, params }));
          });
        },
        onNotification: (handler) => notificationHandlers.push(handler),
        onClose: (handler) => closeHandlers.push(handler),
        close: () => {
          socket.destroy();
          finish();
        },
      });
    });
  });
}
