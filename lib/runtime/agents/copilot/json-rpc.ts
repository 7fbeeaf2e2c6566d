// JSON-RPC 2.0 over one TCP connection with LSP's `Content-Length` framing: how Copilot's `--ui-server` port
// speaks. A client only: requests out, results and notifications in; a request Copilot sends this client is
// refused as unknown (the bridge registers no handlers, so Copilot asks it nothing it needs).
import net from 'node:net';

/** Largest message read (Copilot's events carry whole diffs and system prompts). */
export const RPC_MESSAGE_MAX = 32 * 1024 * 1024;
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
  call(method: string, params: unknown, timeoutMs?: number): Promise<unknown>;
  onNotification(handler: (method: string, params: unknown) => void): void;
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

/** Splits a byte stream into framed messages; calls `bad` and stops on a frame it cannot read. */
export function frameReader(onMessage: (message: Message) => void, bad: (problem: string) => void) {
  let buffer: Buffer = Buffer.alloc(0);
  let broken = false;
  return (chunk: Buffer) => {
    if (broken) return;
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffer.length > 8_192) {
          broken = true;
          bad('a header longer than 8 KiB');
        }
        return;
      }
      const header = buffer.subarray(0, end).toString('ascii');
      const length = /(?:^|\r\n)content-length:\s*(\d+)/i.exec(header)?.[1];
      if (length === undefined || Number(length) > RPC_MESSAGE_MAX) {
        broken = true;
        bad(length === undefined ? 'a frame without Content-Length' : `a message over ${RPC_MESSAGE_MAX} bytes`);
        return;
      }
      const start = end + 4;
      if (buffer.length < start + Number(length)) return;
      const body = buffer.subarray(start, start + Number(length)).toString('utf8');
      buffer = buffer.subarray(start + Number(length));
      let message: unknown;
      try {
        message = JSON.parse(body);
      } catch {
        bad('a message that is not JSON');
        continue;
      }
      if (typeof message === 'object' && message !== null && !Array.isArray(message)) onMessage(message as Message);
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
    const notificationHandlers: ((method: string, params: unknown) => void)[] = [];
    const closeHandlers: (() => void)[] = [];
    let nextId = 1;
    let open = false;
    let closed = false;

    const onMessage = (message: Message) => {
      if (typeof message.method === 'string') {
        if (message.id !== undefined) {
          socket.write(
            frame({
              jsonrpc: '2.0',
              id: message.id,
              error: { code: -32601, message: `Unhandled method ${message.method}` },
            }),
          );
          return;
        }
        for (const handler of notificationHandlers) handler(message.method, message.params);
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
    socket.on(
      'data',
      frameReader(onMessage, (problem) => log(`askaway: Copilot sent ${problem}`)),
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
