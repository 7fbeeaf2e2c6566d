// `askaway acp -- <agent>` (R18.37–R18.40): stands between an editor and an ACP agent. Every line goes through
// unchanged, both ways, the moment it arrives: the editor never waits on Askaway. Beside the editor's dialog,
// each permission request and form the agent sends becomes a card on the phone; whichever answers first wins.
// Phone first: the proxy answers the agent, tells the editor the request is cancelled (`$/cancel_request`),
// closes its dialog with a `tool_call_update`, and drops the editor's late reply. Editor first: its reply goes
// to the agent and the card leaves as answered in the editor.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { AGENT_NAMES, errorMessage, type AgentRef, type InteractionResponse } from '../../../contracts';
import { InvalidInteractionRequestError } from '../../../protocol';
import { type RuntimeClient } from '../../runtime-broker';
import { type RuntimeClientProvider } from '../../runtime-client-provider';
import {
  CancelRequestParamsSchema,
  CreateElicitationParamsSchema,
  InitializeParamsSchema,
  InitializeResultSchema,
  JsonRpcNotificationSchema,
  JsonRpcRequestSchema,
  JsonRpcResponseSchema,
  LoadSessionParamsSchema,
  NewSessionParamsSchema,
  NewSessionResultSchema,
  RequestPermissionParamsSchema,
  SessionCancelParamsSchema,
  type CreateElicitationParams,
  type JsonRpcId,
  type RequestPermissionParams,
} from './acp-shapes';
import {
  AGENT_CANCELLED_REASON,
  AGENT_EXITED_REASON,
  ANSWERED_IN_EDITOR_REASON,
  closingToolCallUpdate,
  editorPermissionResponse,
  TURN_CANCELLED_REASON,
} from './terminal-answer';
import { allows, elicitationResult, permissionResult, summaryOf } from './to-answer';
import { formInteraction, permissionInteraction, type AcpPlace } from './to-interaction';

/** Longest line the proxy reads; a longer one is relayed without a look (parsing it would stall both sides). */
export const ACP_LINE_READ_MAX = 1024 * 1024;
/** Prompts one agent may have on the phone at once; the rest stay in the editor, said once in the log. */
export const ACP_PROMPTS_HELD_MAX = 64;
/** Editor replies to drop (the phone answered first), and requests the proxy watches for their results. */
const REMEMBERED_MAX = 1_000;

export interface AcpProxyOptions {
  runtime: RuntimeClientProvider;
  /** One line to the editor (the proxy's stdout), without its newline. */
  toEditor: (line: string) => void;
  /** One line to the agent (its stdin), without its newline. */
  toAgent: (line: string) => void;
  log: (line: string) => void;
  /** `--name`: what the phone calls the agent, over `initialize`'s agentInfo. */
  name?: string;
  /** The agent's command, named when neither `--name` nor agentInfo says. */
  command?: string;
}

export interface AcpProxy {
  fromEditor(line: string): void;
  fromAgent(line: string): void;
  /** The agent exited or the editor left: withdraw every open card, then close the connection. */
  close(reason?: string): Promise<void>;
  /** Keys of the agent's requests with a card open (diagnostics, tests). */
  open(): string[];
}

type Prompt =
  { kind: 'permission'; params: RequestPermissionParams } | { kind: 'form'; params: CreateElicitationParams };

interface Tracked {
  key: string;
  id: JsonRpcId;
  prompt: Prompt;
  sessionId: string;
  requestId: string;
  controller: AbortController;
}

const keyOf = (id: JsonRpcId) => JSON.stringify(id);

/** A bounded set: the oldest entry goes first. */
function remember(set: Set<string>, key: string): void {
  set.add(key);
  if (set.size > REMEMBERED_MAX) set.delete(set.values().next().value ?? '');
}

function parseLine(line: string): unknown {
  if (line.length > ACP_LINE_READ_MAX) return undefined;
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

export function createAcpProxy(options: AcpProxyOptions): AcpProxy {
  const { log } = options;
  const proxyId = randomUUID().slice(0, 8);
  const fallbackName = options.command ? path.basename(options.command) : AGENT_NAMES.acp;
  let agent: AgentRef = { kind: 'acp', name: options.name ?? fallbackName };
  let editorShowsForms = false;
  /** The editor's requests whose results the proxy reads: `initialize`, `session/new`. */
  const watched = new Map<string, { method: string; cwd?: string }>();
  const sessions = new Map<string, string>();
  const tracked = new Map<string, Tracked>();
  /** The phone answered these: the editor's reply (to the cancel or late) goes nowhere. */
  const dropReplies = new Set<string>();
  let client: RuntimeClient | undefined;
  let overflowSaid = false;
  let closed = false;

  const place = (sessionId: string): AcpPlace => {
    const cwd = sessions.get(sessionId);
    return { agent, proxyId, ...(cwd ? { cwd } : {}) };
  };

  const withdraw = (entry: Tracked, reason: string, editorResponse?: InteractionResponse) => {
    if (tracked.get(entry.key) !== entry) return;
    tracked.delete(entry.key);
    const terminalAnswer =
      reason === ANSWERED_IN_EDITOR_REASON
        ? { where: 'editor' as const, ...(editorResponse ? { response: editorResponse } : {}) }
        : undefined;
    if (entry.requestId) client?.connection.withdraw(entry.requestId, reason, terminalAnswer).catch(() => undefined);
    entry.controller.abort(new Error(reason));
    log(`askaway: ${entry.prompt.kind} ${entry.key} withdrawn from the phone: ${reason}`);
  };

  /** The phone answered first: the agent gets the answer, the editor a cancel and the tool call moved on. */
  const answer = (entry: Tracked, response: InteractionResponse) => {
    tracked.delete(entry.key);
    remember(dropReplies, entry.key);
    if (entry.prompt.kind === 'permission') {
      const result = permissionResult(entry.prompt.params, response);
      options.toAgent(JSON.stringify({ jsonrpc: '2.0', id: entry.id, result }));
      log(`askaway: permission ${entry.key}: ${summaryOf(result)} on the phone`);
      options.toEditor(JSON.stringify({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: entry.id } }));
      options.toEditor(
        JSON.stringify(
          closingToolCallUpdate(
            entry.sessionId,
            entry.prompt.params.toolCall.toolCallId,
            allows(entry.prompt.params, result),
          ),
        ),
      );
      return;
    }
    const result = elicitationResult(entry.prompt.params.mode, response);
    options.toAgent(JSON.stringify({ jsonrpc: '2.0', id: entry.id, result }));
    log(`askaway: form ${entry.key}: ${summaryOf(result)} on the phone`);
    options.toEditor(JSON.stringify({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: entry.id } }));
  };

  const ask = async (id: JsonRpcId, prompt: Prompt) => {
    const key = keyOf(id);
    if (closed || tracked.has(key)) return;
    if (tracked.size >= ACP_PROMPTS_HELD_MAX) {
      if (!overflowSaid)
        log(`askaway: ${ACP_PROMPTS_HELD_MAX} prompts already on the phone; the rest stay in the editor`);
      overflowSaid = true;
      return;
    }
    const sessionId = prompt.params.sessionId ?? 'acp';
    const interaction =
      prompt.kind === 'permission'
        ? permissionInteraction(prompt.params, place(sessionId), key)
        : formInteraction(prompt.params, place(sessionId), key);
    if ('unsupported' in interaction) {
      log(`askaway: form ${key} stays in the editor: ${interaction.unsupported}`);
      return;
    }
    const entry: Tracked = {
      key,
      id,
      prompt,
      sessionId,
      requestId: interaction.requestId,
      controller: new AbortController(),
    };
    tracked.set(key, entry);
    try {
      const current = options.runtime.get(agent.name);
      client = current;
      const resolution = await current.broker.requestInteraction(interaction, { signal: entry.controller.signal });
      if (tracked.get(key) === entry) answer(entry, resolution.response);
      else if (entry.requestId)
        // The editor answered while this answer was on its way: the card says the editor's answer stood.
        client.connection
          .withdraw(entry.requestId, ANSWERED_IN_EDITOR_REASON, { where: 'editor' }, { afterAnswer: true })
          .catch(() => undefined);
    } catch (error) {
      if (entry.controller.signal.aborted) return;
      tracked.delete(key);
      log(
        error instanceof InvalidInteractionRequestError
          ? `askaway: ${prompt.kind} ${key} cannot be shown on the phone and stays in the editor: ${error.message}`
          : `askaway: ${prompt.kind} ${key} stays in the editor: ${errorMessage(error)}`,
      );
    }
  };

  const onAgentRequest = (id: JsonRpcId, method: string, params: unknown) => {
    if (method === 'session/request_permission') {
      const parsed = RequestPermissionParamsSchema.safeParse(params);
      if (parsed.success) void ask(id, { kind: 'permission', params: parsed.data });
      else log(`askaway: unreadable session/request_permission ${keyOf(id)}: it stays in the editor`);
    } else if (method === 'elicitation/create') {
      const parsed = CreateElicitationParamsSchema.safeParse(params);
      // An editor that shows no forms answers "method not found": the agent must not get a form from the phone.
      if (parsed.success && editorShowsForms) void ask(id, { kind: 'form', params: parsed.data });
    }
  };

  const onEditorRequest = (id: JsonRpcId, method: string, params: unknown) => {
    if (method === 'initialize') {
      const parsed = InitializeParamsSchema.safeParse(params);
      const elicitation = parsed.success ? parsed.data.clientCapabilities?.elicitation : undefined;
      editorShowsForms = elicitation !== undefined && elicitation !== null && elicitation.form !== undefined;
      watched.set(keyOf(id), { method });
    } else if (method === 'session/new') {
      const parsed = NewSessionParamsSchema.safeParse(params);
      watched.set(keyOf(id), { method, ...(parsed.success ? { cwd: parsed.data.cwd } : {}) });
    } else if (method === 'session/load') {
      const parsed = LoadSessionParamsSchema.safeParse(params);
      if (parsed.success && parsed.data.cwd) sessions.set(parsed.data.sessionId, parsed.data.cwd);
    }
    if (watched.size > REMEMBERED_MAX) watched.delete(watched.keys().next().value ?? '');
  };

  /** The agent's result for an editor request the proxy watches. */
  const onAgentResponse = (key: string, result: unknown) => {
    const request = watched.get(key);
    if (!request) return;
    watched.delete(key);
    if (request.method === 'initialize') {
      const info = InitializeResultSchema.safeParse(result);
      const named = info.success ? info.data.agentInfo : undefined;
      if (named)
        agent = {
          kind: 'acp',
          name: (options.name ?? named.title ?? named.name).slice(0, 80) || fallbackName,
          ...(named.version ? { version: named.version.slice(0, 80) } : {}),
        };
      log(`askaway: relaying ${agent.name}${agent.version ? ` ${agent.version}` : ''}`);
    } else if (request.method === 'session/new' && request.cwd) {
      const parsed = NewSessionResultSchema.safeParse(result);
      if (parsed.success) {
        sessions.set(parsed.data.sessionId, request.cwd);
        if (sessions.size > REMEMBERED_MAX) sessions.delete(sessions.keys().next().value ?? '');
      }
    }
  };

  return {
    fromEditor(line) {
      const message = parseLine(line);
      const response = JsonRpcResponseSchema.safeParse(message);
      if (response.success && response.data.id !== null && !('method' in (message as object))) {
        const key = keyOf(response.data.id);
        if (dropReplies.delete(key)) return; // The phone answered first: the agent has its answer.
        const entry = tracked.get(key);
        if (entry)
          withdraw(
            entry,
            ANSWERED_IN_EDITOR_REASON,
            entry.prompt.kind === 'permission'
              ? editorPermissionResponse(entry.prompt.params, response.data.result)
              : undefined,
          );
        options.toAgent(line);
        return;
      }
      options.toAgent(line);
      const request = JsonRpcRequestSchema.safeParse(message);
      if (request.success) {
        onEditorRequest(request.data.id, request.data.method, request.data.params);
        return;
      }
      const notification = JsonRpcNotificationSchema.safeParse(message);
      if (!notification.success) return;
      if (notification.data.method === 'session/cancel') {
        const parsed = SessionCancelParamsSchema.safeParse(notification.data.params);
        if (parsed.success)
          for (const entry of [...tracked.values()])
            if (entry.sessionId === parsed.data.sessionId) withdraw(entry, TURN_CANCELLED_REASON);
      }
    },
    fromAgent(line) {
      options.toEditor(line);
      const message = parseLine(line);
      const request = JsonRpcRequestSchema.safeParse(message);
      if (request.success) {
        onAgentRequest(request.data.id, request.data.method, request.data.params);
        return;
      }
      const response = JsonRpcResponseSchema.safeParse(message);
      if (response.success && response.data.id !== null && !('method' in (message as object))) {
        onAgentResponse(keyOf(response.data.id), response.data.result);
        return;
      }
      const notification = JsonRpcNotificationSchema.safeParse(message);
      if (notification.success && notification.data.method === '$/cancel_request') {
        const parsed = CancelRequestParamsSchema.safeParse(notification.data.params);
        const entry = parsed.success ? tracked.get(keyOf(parsed.data.requestId)) : undefined;
        if (entry) withdraw(entry, AGENT_CANCELLED_REASON);
      }
    },
    async close(reason = AGENT_EXITED_REASON) {
      if (closed) return;
      closed = true;
      for (const entry of [...tracked.values()]) withdraw(entry, reason);
      await options.runtime.close();
    },
    open: () => [...tracked.keys()],
  };
}
