import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createAskawayMcpServer } from '../runtime/mcp/askaway-mcp-server';
import { type RuntimeFor } from './runtime-for';
import { readJsonBody } from '../http/json-body';
import { type HttpRouteHandler } from '../host/http/routes';
import { sendJsonRpcError } from '../http/http-replies';

export const MCP_HTTP_PATH = '/mcp';
const MAX_BODY_BYTES = 1024 * 1024;
/** Sessions one credential keeps at once; its own oldest is closed beyond this (R12.10). */
const MAX_SESSIONS_PER_CALLER = 64;
/** Sessions of all callers together: beyond it a new one is refused, never someone else's closed (R12.3). */
const MAX_SESSIONS = 1_024;

export interface McpHttpBridge {
  handler: HttpRouteHandler;
  /** Ends every session, withdrawing questions still waiting. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** Who opened it: only the same caller may use it (a machine cannot ride another's session). */
  principalKey: string;
}

/**
 * AskUserQuestion over MCP streamable HTTP at `/mcp` (R11.1), bearer token required.
 * Calls go through the host's own '/runtime' namespace like any runtime's, so there
 * is one path for every agent.
 */
export function createMcpHttpBridge(options: { runtimeFor: RuntimeFor; version: string }): McpHttpBridge {
  const sessions = new Map<string, Session>();
  const shutdown = new AbortController();

  const closeSession = async (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    await session?.server.close().catch(() => undefined);
  };

  const handler: HttpRouteHandler = async (req, res, context) => {
    const credential = context.bearerToken();
    const auth = await context.authenticateAgent(credential);
    if (!auth.ok || credential === undefined) {
      const message = auth.ok ? 'no token' : auth.message;
      sendJsonRpcError(res, 401, -32001, `Unauthorized: ${message} Send it as 'Authorization: Bearer <token>'.`, {
        'WWW-Authenticate': 'Bearer realm="askaway"',
      });
      return;
    }
    const principalKey = `${auth.principal.kind}:${auth.principal.id}`;
    if (context.pathname !== MCP_HTTP_PATH) {
      sendJsonRpcError(res, 404, -32601, `Not found: the MCP endpoint is ${MCP_HTTP_PATH}`);
      return;
    }
    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session || session.principalKey !== principalKey) {
        sendJsonRpcError(res, 404, -32001, 'Session not found: initialize a new MCP session');
        return;
      }
      await session.transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      sendJsonRpcError(res, 400, -32000, 'No MCP session: POST an initialize request first');
      return;
    }
    let body: unknown;
    try {
      body = await readJsonBody(req, MAX_BODY_BYTES);
    } catch (error) {
      sendJsonRpcError(res, 400, -32700, error instanceof Error ? error.message : 'Invalid body');
      return;
    }
    if (!isInitializeRequest(body)) {
      sendJsonRpcError(res, 400, -32000, 'No MCP session: POST an initialize request first');
      return;
    }
    // R12.10: a caller evicts only its own sessions, so a joined machine cannot close the hub agent's.
    const mine = [...sessions].filter(([, session]) => session.principalKey === principalKey);
    const oldestMine = mine[0]?.[0];
    if (mine.length >= MAX_SESSIONS_PER_CALLER && oldestMine !== undefined) await closeSession(oldestMine);
    else if (sessions.size >= MAX_SESSIONS) {
      sendJsonRpcError(res, 503, -32000, 'Too many MCP sessions open on this host; close some and try again', {
        'Retry-After': '30',
      });
      return;
    }

    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => undefined,
    });
    const server = createAskawayMcpServer({
      runtime: options.runtimeFor({ principal: auth.principal, credential }),
      sessionId: `mcp-http-${id}`,
      version: options.version,
      shutdownSignal: shutdown.signal,
    });
    sessions.set(id, { transport, server, principalKey });
    transport.onclose = () => {
      sessions.delete(id);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  return {
    handler,
    async close() {
      shutdown.abort(new Error('The host is shutting down'));
      await Promise.all([...sessions.keys()].map((id) => closeSession(id)));
    },
  };
}
