// Codex's own config RPCs (`hooks/list`, `config/batchWrite`), so Askaway never edits config.toml itself.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { BRIDGE_FRAME_MAX_BYTES, errorMessage, isRecord, parseBoundedJson } from '../../../contracts';
import { controlSocketPath } from './codex-home';
import { BRIDGE_CLIENT_INFO, DaemonRpc, RpcError } from './daemon-rpc';

/** A JSON-RPC session with a Codex app-server. */
export interface ConfigServer {
  request(method: string, params?: unknown): Promise<unknown>;
  notify(method: string): void;
  close(): void;
}

const REQUEST_TIMEOUT_MS = 20_000;

/**
 * `codex app-server` on stdio (newline-delimited JSON): a server of its own for this one job, which starts
 * no daemon. Rejects when the `codex` binary cannot be run.
 */
function stdioServer(codexBin: string, env: Record<string, string | undefined>): Promise<ConfigServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(codexBin, ['app-server'], { env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'ignore'] });
    const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
    let nextId = 1;
    let exited: string | null = null;
    child.stdout.setEncoding('utf8');
    // Each chunk is searched once for its line ends, and a line past the frame bound is dropped while it
    // arrives (R12.19): a line without end never makes the search start over from its beginning.
    let parts: string[] = [];
    let partsLength = 0;
    let overlong = false;
    const onLine = (line: string) => {
      const parsed = parseBoundedJson(line);
      if (!parsed.ok) return;
      const message = parsed.value;
      if (!isRecord(message) || typeof message.id !== 'number' || typeof message.method === 'string') return;
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (!waiter) return;
      const error = message.error;
      if (isRecord(error))
        waiter.reject(new RpcError('codex app-server', Number(error.code ?? 0), String(error.message)));
      else waiter.resolve(message.result);
    };
    child.stdout.on('data', (chunk: string) => {
      let start = 0;
      for (let end = chunk.indexOf('\n'); end >= 0; end = chunk.indexOf('\n', start)) {
        const piece = chunk.slice(start, end);
        start = end + 1;
        const line = parts.length > 0 ? parts.join('') + piece : piece;
        const drop = overlong || line.length > BRIDGE_FRAME_MAX_BYTES;
        parts = [];
        partsLength = 0;
        overlong = false;
        if (!drop) onLine(line);
      }
      const rest = chunk.slice(start);
      if (overlong || rest.length === 0) return;
      partsLength += rest.length;
      if (partsLength > BRIDGE_FRAME_MAX_BYTES) {
        parts = [];
        overlong = true;
      } else parts.push(rest);
    });
    const fail = (reason: string) => {
      exited = reason;
      for (const waiter of pending.values()) waiter.reject(new Error(reason));
      pending.clear();
    };
    child.once('error', (error) => {
      fail(`could not run ${codexBin}: ${errorMessage(error)}`);
      reject(new Error(exited ?? 'codex app-server failed'));
    });
    child.once('exit', (code) => fail(`codex app-server exited (${code ?? 'signal'})`));
    child.once('spawn', () =>
      resolve({
        request(method, params) {
          if (exited !== null) return Promise.reject(new Error(exited));
          const id = nextId;
          nextId += 1;
          return new Promise((resolveRequest, rejectRequest) => {
            const timer = setTimeout(() => {
              pending.delete(id);
              rejectRequest(new Error(`${method}: no answer within ${REQUEST_TIMEOUT_MS} ms`));
            }, REQUEST_TIMEOUT_MS);
            pending.set(id, {
              resolve: (value) => {
                clearTimeout(timer);
                resolveRequest(value);
              },
              reject: (error) => {
                clearTimeout(timer);
                rejectRequest(error);
              },
            });
            child.stdin.write(`${JSON.stringify({ id, method, ...(params === undefined ? {} : { params }) })}\n`);
          });
        },
        notify(method) {
          if (exited === null) child.stdin.write(`${JSON.stringify({ method })}\n`);
        },
        close() {
          child.stdin.end();
          child.kill();
        },
      }),
    );
  });
}

async function initialized(server: ConfigServer): Promise<ConfigServer> {
  try {
    await server.request('initialize', { clientInfo: BRIDGE_CLIENT_INFO, capabilities: null });
    server.notify('initialized');
    return server;
  } catch (error) {
    server.close();
    throw error;
  }
}

/**
 * Runs `job` against the home's running daemon when one answers (it then reloads its config and runs a
 * newly trusted hook at once), else against a `codex app-server` of its own on stdio.
 */
export async function withConfigServer<T>(
  codexHome: string,
  options: { codexBin: string; env: Record<string, string | undefined> },
  job: (server: ConfigServer) => Promise<T>,
): Promise<T> {
  let server: ConfigServer | undefined;
  const socket = controlSocketPath(codexHome);
  if (existsSync(socket)) {
    try {
      const rpc = await DaemonRpc.connect(socket, {
        onRequest: () => undefined,
        onNotification: () => undefined,
        onClose: () => undefined,
      });
      server = await initialized({
        request: (method, params) => rpc.request(method, params),
        notify: (method) => rpc.notify(method),
        close: () => rpc.close(),
      });
    } catch {
      server = undefined;
    }
  }
  if (!server) {
    server = await initialized(await stdioServer(options.codexBin, { ...options.env, CODEX_HOME: codexHome }));
  }
  try {
    return await job(server);
  } finally {
    server.close();
  }
}
