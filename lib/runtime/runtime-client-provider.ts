import { randomUUID } from 'node:crypto';
import { noTokenError } from './errors';
import { resolveDataDir, resolveHostTarget } from './host-address';
import { createRuntimeClient, type RuntimeClient } from './runtime-broker';

/** How long a call waits for the host before reporting it unreachable. */
export const HOST_CHECK_TIMEOUT_MS = 3_000;

type Env = Record<string, string | undefined>;

/**
 * A runtime connection made on first use and remade after the host refused it
 * (say it restarted with a new token), so a long-lived process (MCP server,
 * HTTP bridge) picks up a host started after it.
 */
export interface RuntimeClientProvider {
  /** Throws a HostConnectionError when there is no token to connect with. */
  get(label: string): RuntimeClient;
  close(): Promise<void>;
}

export function runtimeClientProvider(
  target: { url?: string; token?: string; env?: Env; runtimeId?: string; insecureTls?: boolean } = {},
): RuntimeClientProvider {
  let current: RuntimeClient | undefined;
  const runtimeId = target.runtimeId ?? `runtime-${randomUUID()}`;
  return {
    get(label) {
      if (current && current.connection.failure === null) return current;
      const stale = current;
      current = undefined;
      void stale?.close();
      const env = target.env ?? process.env;
      // Read on every (re)connect: a machine joined, or a host started, after this process began.
      const resolved = target.url !== undefined && target.token !== undefined ? undefined : resolveHostTarget(env);
      const token = target.token ?? resolved?.token ?? null;
      if (token === null) throw noTokenError(resolveDataDir(env));
      current = createRuntimeClient({
        url: target.url ?? resolved?.url ?? '',
        token,
        runtimeId,
        label,
        insecureTls: target.insecureTls,
        ...(target.url === undefined && resolved?.hub ? { hubName: resolved.hub.name } : {}),
      });
      return current;
    },
    async close() {
      const open = current;
      current = undefined;
      await open?.close();
    },
  };
}
