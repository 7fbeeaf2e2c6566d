// The Askaway plugin for OpenCode (R18.20). It runs inside OpenCode (Bun; the TUI's worker, or `serve`),
// so it is built into one self-contained file that imports nothing but Node's built-ins (`askaway opencode
// install` writes it; scripts/cli-bundle.mjs builds it). A plugin that needs `@opencode-ai/plugin` at run
// time would not load on a machine without the npm registry. It does as little as it can: it starts one
// `askaway opencode bridge` per OpenCode process, forwards the events that matter and makes the HTTP calls
// the bridge asks for through OpenCode's own client, which works even in a plain TUI that opens no port.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { BRIDGE_PROTOCOL, type BridgeMessage, type PluginMessage, type PluginOptions } from './bridge-protocol';
import { forwardedEvent } from './forwarded-event';

/** Written above the bundle by `askaway opencode install`. */
declare const ASKAWAY_OPENCODE: PluginOptions;

/** The part of OpenCode's SDK client used here (hey-api's client under `client._client`). */
interface RawResult {
  data?: unknown;
  error?: unknown;
  response?: { status: number };
}
interface RawClient {
  get(options: { url: string; headers?: Record<string, string> }): Promise<RawResult>;
  post(options: { url: string; body?: unknown; headers?: Record<string, string> }): Promise<RawResult>;
}
/** What OpenCode passes a plugin (1.18): its client, bound to one directory instance. */
export interface OpenCodePluginInput {
  client: { _client: RawClient };
  directory: string;
}
export interface OpenCodeHooks {
  event?: (input: { event: { type: string; properties?: unknown } }) => Promise<void>;
  dispose?: () => Promise<void>;
}

interface Instance {
  directory: string;
  client: RawClient;
}

/** One per OpenCode process, shared by every copy of the plugin (a global and a project install). */
interface Shared {
  instances: Map<number, Instance>;
  next: number;
  child: ChildProcess | undefined;
  restartDelayMs: number;
  restartTimer: ReturnType<typeof setTimeout> | undefined;
  warnedStart: boolean;
}

const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;

function shared(): Shared {
  const key = Symbol.for('askaway.opencode');
  const holder = globalThis as typeof globalThis & { [key: symbol]: Shared | undefined };
  holder[key] ??= {
    instances: new Map(),
    next: 1,
    child: undefined,
    restartDelayMs: RESTART_MIN_MS,
    restartTimer: undefined,
    warnedStart: false,
  };
  return holder[key];
}

/** The bridge's own lines: to ASKAWAY_OPENCODE_LOG when set, else to OpenCode's log (`opencode … --print-logs`). */
function log(state: Shared, message: string): void {
  const file = process.env.ASKAWAY_OPENCODE_LOG;
  if (file) {
    try {
      appendFileSync(file, `${new Date().toISOString()} ${message}\n`);
    } catch {
      // Never break OpenCode over a log line.
    }
    return;
  }
  const first = state.instances.values().next().value;
  first?.client
    .post({ url: '/log', body: { service: 'askaway', level: 'info', message }, headers: JSON_HEADERS })
    .catch(() => undefined);
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };

function send(state: Shared, message: PluginMessage): void {
  const stdin = state.child?.stdin;
  if (!stdin || stdin.destroyed || !stdin.writable) return;
  stdin.write(`${JSON.stringify(message)}\n`);
}

function hello(state: Shared, instance: number, directory: string): void {
  send(state, { type: 'hello', protocol: BRIDGE_PROTOCOL, instance, directory });
}

async function call(state: Shared, request: BridgeMessage): Promise<void> {
  const instance = state.instances.get(request.instance);
  if (!instance) {
    send(state, { type: 'response', id: request.id, status: 0, error: 'no such OpenCode instance' });
    return;
  }
  try {
    const result =
      request.method === 'GET'
        ? await instance.client.get({ url: request.url })
        : await instance.client.post({ url: request.url, body: request.body ?? {}, headers: JSON_HEADERS });
    send(state, {
      type: 'response',
      id: request.id,
      status: result.response?.status ?? 0,
      data: result.data,
      error: result.error,
    });
  } catch (error) {
    send(state, { type: 'response', id: request.id, status: 0, error: String(error) });
  }
}

function start(state: Shared): void {
  state.restartTimer = undefined;
  if (state.child || state.instances.size === 0) return;
  // A shell command, as Claude Code runs hooks: `askaway` from PATH, or what `install --command` wrote.
  const child = spawn(ASKAWAY_OPENCODE.command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'], env: process.env });
  state.child = child;
  child.on('error', (error) => log(state, `askaway: the bridge did not start (${ASKAWAY_OPENCODE.command}): ${error}`));
  child.stdin?.on('error', () => undefined);
  createInterface({ input: child.stderr }).on('line', (line) => log(state, line));
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message: BridgeMessage;
    try {
      message = JSON.parse(line) as BridgeMessage;
    } catch {
      log(state, `askaway: not a bridge message: ${line.slice(0, 200)}`);
      return;
    }
    if (message?.type === 'request') void call(state, message);
  });
  const startedAt = Date.now();
  child.on('exit', (code, signal) => {
    if (state.child === child) state.child = undefined;
    if (state.instances.size === 0) return;
    // A bridge that ran a while is restarted soon; one that dies at once, less and less often.
    state.restartDelayMs = Date.now() - startedAt > RESTART_MAX_MS ? RESTART_MIN_MS : state.restartDelayMs;
    if (!state.warnedStart && code === 127) {
      state.warnedStart = true;
      log(state, `askaway: "${ASKAWAY_OPENCODE.command}" was not found: install Askaway (npm install -g askaway)`);
    }
    log(state, `askaway: the bridge stopped (${signal ?? `exit ${code}`}); starting it again`);
    state.restartTimer = setTimeout(() => start(state), state.restartDelayMs);
    state.restartTimer.unref?.();
    state.restartDelayMs = Math.min(state.restartDelayMs * 2, RESTART_MAX_MS);
  });
  for (const [instance, { directory }] of state.instances) hello(state, instance, directory);
}

/** One directory instance of OpenCode: its events go to the bridge, the bridge's calls come back through its client. */
export const AskawayOpenCode = async (input: OpenCodePluginInput): Promise<OpenCodeHooks> => {
  const state = shared();
  // A second copy (installed globally and in the project) for the same directory would ask everything twice.
  for (const other of state.instances.values()) if (other.directory === input.directory) return {};
  const instance = state.next;
  state.next += 1;
  state.instances.set(instance, { directory: input.directory, client: input.client._client });
  if (state.child) hello(state, instance, input.directory);
  else if (!state.restartTimer) start(state);
  return {
    async event({ event }) {
      const forwarded = forwardedEvent(event);
      if (forwarded) send(state, { type: 'event', instance, event: forwarded });
    },
    async dispose() {
      send(state, { type: 'bye', instance });
      state.instances.delete(instance);
      if (state.instances.size > 0) return;
      // The last one: the bridge withdraws what is still open and exits when its stdin ends.
      if (state.restartTimer) clearTimeout(state.restartTimer);
      state.restartTimer = undefined;
      state.child?.stdin?.end();
      state.child = undefined;
    },
  };
};
