import { randomUUID } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { runtimeClientProvider } from '../runtime-client-provider';
import { createAskawayMcpServer } from './askaway-mcp-server';

export interface StdioMcpOptions {
  version: string;
  env?: Record<string, string | undefined>;
  stdin?: NodeJS.ReadableStream & { pause(): unknown };
  stdout?: NodeJS.WritableStream;
  /** Resolves the returned promise early, e.g. on SIGINT. */
  signal?: AbortSignal;
}

/**
 * `askaway mcp`: AskUserQuestion over stdio (R11.1). The host is found lazily on
 * the first call, so the server may start before the host does. Resolves when the
 * client closes stdin or `signal` aborts; pending questions are withdrawn.
 */
export async function runStdioMcpServer(options: StdioMcpOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const runtime = runtimeClientProvider({ env: options.env });
  const shutdown = new AbortController();
  const server = createAskawayMcpServer({
    runtime,
    sessionId: `mcp-${randomUUID()}`,
    cwd: process.cwd(),
    version: options.version,
    shutdownSignal: shutdown.signal,
  });
  const transport = new StdioServerTransport(
    stdin as NodeJS.ReadStream,
    (options.stdout ?? process.stdout) as NodeJS.WriteStream,
  );

  const ended = new Promise<void>((resolve) => {
    stdin.once('end', () => resolve());
    stdin.once('close', () => resolve());
    transport.onclose = () => resolve();
    options.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  await ended;
  shutdown.abort(new Error('The MCP server is shutting down'));
  await server.close().catch(() => undefined);
  await runtime.close();
}
