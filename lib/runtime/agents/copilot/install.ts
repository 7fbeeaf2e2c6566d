// How Copilot is found and started (R18.2: install; R18.30): nothing is written to Copilot's config. `askaway
// copilot` starts the person's own `copilot` (COPILOT_BIN, else PATH) with `--ui-server --port <port>` on a
// free loopback port it tells nobody else, and the bridge attaches to that port.
import { accessSync, constants } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

type Env = Record<string, string | undefined>;

export const COPILOT_COMMAND = 'copilot';

/** The `copilot` to start: COPILOT_BIN, else the first executable `copilot` on PATH; undefined if none. */
export function findCopilot(env: Env): string | undefined {
  if (env.COPILOT_BIN?.trim()) return env.COPILOT_BIN.trim();
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, COPILOT_COMMAND);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Flags of Copilot's that say it should not start its TUI (or a server of its own): passed through untouched. */
const NOT_A_TUI = new Set(['-p', '--prompt', '--help', '-h', '--version', '-v', '--server', '--acp', '--headless']);

/**
 * Copilot's arguments with the server flags added, or undefined when the bridge has nothing to attach to:
 * a non-interactive run (`-p`), help, version, a server mode of its own, a port the person chose, or a
 * subcommand (`copilot login`, `copilot help providers`) which never opens the TUI.
 */
export function copilotArgs(args: readonly string[], port: number): string[] | undefined {
  if (args.some((arg) => NOT_A_TUI.has(arg) || arg === '--ui-server' || arg === '--port' || arg.startsWith('--port=')))
    return undefined;
  const first = args[0];
  if (first !== undefined && !first.startsWith('-')) return undefined;
  return [...args, '--ui-server', '--port', String(port)];
}

/**
 * A port nothing listens on now, on loopback (the OS picks it; Copilot binds it a moment later). Another local
 * process could bind it first: the bridge checks whose socket it reached before it relays anything (peer-process.ts).
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}
