import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  AGENT_NAMES,
  type AgentKind,
  type AgentRef,
  ASK_USER_QUESTION_TOOL_NAME,
  askUserQuestionProviderJsonSchema,
  type InteractionOrigin,
} from '../../contracts';
import { askUserQuestionTool, executeToolCall, type PermissionBrokerPort } from '../../core';
import { HOST_CHECK_TIMEOUT_MS, type RuntimeClientProvider } from '../runtime-client-provider';

export const MCP_SERVER_NAME = 'askaway';
/** How often a long wait tells the client it is still alive (when it asked for progress). */
const PROGRESS_INTERVAL_MS = 25_000;

export interface AskawayMcpServerOptions {
  /** The runtime connection, created on first use and shared by every call. */
  runtime: RuntimeClientProvider;
  /** Groups this server's questions on the phone; the MCP session id when there is one. */
  sessionId: string;
  /** The working directory shown with each question (R9.10). */
  cwd?: string;
  version: string;
  hostCheckTimeoutMs?: number;
  /** Aborting it ends every waiting call (and withdraws its question), e.g. on shutdown. */
  shutdownSignal?: AbortSignal;
}

// Accept any object so our own validation names the broken rule (R2.x) in an error
// result the model can act on, rather than a protocol error from the SDK.
const PermissiveInputSchema = z.object({}).passthrough();

const text = (value: string, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: value }],
  ...(isError ? { isError } : {}),
});

/** The MCP server exposing AskUserQuestion (R11.1, R11.4). One per client session. */
export function createAskawayMcpServer(options: AskawayMcpServerOptions): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version: options.version });
  const annotations = {
    title: 'Ask the user',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  };

  server.registerTool(
    ASK_USER_QUESTION_TOOL_NAME,
    { description: askUserQuestionTool.description, inputSchema: PermissiveInputSchema, annotations },
    async (args, extra) => {
      const client = server.server.getClientVersion();
      const origin = clientOrigin(client?.name, client?.version);
      const broker = readyBroker(options, origin.label);
      const stopProgress = keepAlive(extra._meta?.progressToken, (notification) =>
        extra.sendNotification(notification),
      );
      try {
        const result = await executeToolCall({
          tool: askUserQuestionTool,
          input: args,
          sessionId: options.sessionId,
          requestId: `mcp-${randomUUID()}`,
          toolUseId: `mcp-${String(extra.requestId)}`,
          origin,
          agent: mcpClientAgent(client?.name, client?.version),
          context: options.cwd === undefined ? undefined : { cwd: options.cwd },
          broker,
          signal: options.shutdownSignal ? AbortSignal.any([extra.signal, options.shutdownSignal]) : extra.signal,
        });
        return result.ok ? text(result.content) : text(result.error, true);
      } finally {
        stopProgress();
      }
    },
  );

  // The SDK derives tools/list from the zod schema; the model must see the provider
  // schema instead, where multiSelect is required (R2.5).
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: ASK_USER_QUESTION_TOOL_NAME,
        title: annotations.title,
        description: askUserQuestionTool.description,
        inputSchema: { type: 'object' as const, ...askUserQuestionProviderJsonSchema() },
        annotations,
      },
    ],
  }));
  return server;
}

/** The origin label on the phone: which MCP client asked (R7.3, R9.6). */
export function clientOrigin(name: string | undefined, version: string | undefined): InteractionOrigin {
  const clientName = (name ?? '').trim().slice(0, 150) || 'MCP client';
  const label = version ? `${clientName} ${version}` : clientName;
  const origin: InteractionOrigin = {
    kind: 'root',
    label: label.slice(0, 200),
    path: [],
    depth: 0,
    client: { name: clientName },
  };
  if (version && origin.client) origin.client.version = version.slice(0, 80);
  return origin;
}

/** Checks the host is there before announcing, so a stopped host is an error result, not a hang. */
function readyBroker(options: AskawayMcpServerOptions, label: string): PermissionBrokerPort {
  return {
    async requestPermission(request, callOptions) {
      const runtime = options.runtime.get(`MCP: ${label}`);
      await runtime.connection.ready(options.hostCheckTimeoutMs ?? HOST_CHECK_TIMEOUT_MS);
      return runtime.broker.requestPermission(request, callOptions);
    },
  };
}

type ProgressNotification = {
  method: 'notifications/progress';
  params: { progressToken: string | number; progress: number; message: string };
};

function keepAlive(
  token: string | number | undefined,
  send: (notification: ProgressNotification) => Promise<void>,
): () => void {
  if (token === undefined) return () => undefined;
  let progress = 0;
  const timer = setInterval(() => {
    progress += 1;
    send({
      method: 'notifications/progress',
      params: { progressToken: token, progress, message: 'Waiting for the user to answer in Askaway' },
    }).catch(() => undefined);
  }, PROGRESS_INTERVAL_MS);
  return () => clearInterval(timer);
}

/** MCP clients that are agents Askaway knows by kind: their questions carry that agent, not "an MCP client" (R18.1). */
const KNOWN_CLIENTS: [RegExp, AgentKind][] = [
  [/^claude[-_ ]?code/i, 'claude-code'],
  [/^codex/i, 'codex'],
  [/^opencode/i, 'opencode'],
];

/** The agent behind an MCP client, named as it names itself (R18.1). */
export function mcpClientAgent(name: string | undefined, version: string | undefined): AgentRef {
  const clientName = (name ?? '').trim().slice(0, 80);
  const kind = KNOWN_CLIENTS.find(([pattern]) => pattern.test(clientName))?.[1] ?? 'mcp';
  return {
    kind,
    name: kind === 'mcp' ? clientName || AGENT_NAMES.mcp : AGENT_NAMES[kind],
    ...(version ? { version: version.slice(0, 80) } : {}),
  };
}
