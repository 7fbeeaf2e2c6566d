// `askaway acp -- <agent>` (R18.37–R18.40): stands between an editor and an ACP agent. Every line goes through
// unchanged, both ways, the moment it arrives: the editor never waits on Askaway. Beside the editor's dialog,
// each permission request and form the agent sends becomes a card on the phone; whichever answers first wins.
// Phone first: the proxy answers the agent, tells the editor the request is cancelled (`$/cancel_request`),
// closes its dialog with a `tool_call_update`, and drops the editor's late reply. Editor first: its reply goes
// to the agent and the card leaves as answered in the editor. Each prompt's end is a card too, without a reply
// box (finished-turn-relay.ts): the editor owns the prompt.
// What either side sends is held to the host's limits (R12.18, R12.19, R12.21): a line is looked at only once
// parseBoundedJson accepts it, every request is a new interaction (a JSON-RPC id is unique only while its
// request is open, and agents reuse them), and everything the proxy keeps is bounded in count and bytes.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  AGENT_NAMES,
  errorMessage,
  parseBoundedJson,
  type AgentRef,
  type InteractionResponse,
} from '../../../contracts';
import { InvalidInteractionRequestError, type DirectInteractionRequest } from '../../../protocol';
import { createFinishedTurns } from '../../finished-turns';
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
import { AcpFinishedTurnRelay } from './finished-turn-relay';
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
/**
 * The bytes of the messages those prompts came in, together (R12.19): their cards wait in the runtime until
 * answered, each as big as its message at most, so 64 prompts of a MiB each would hold a lot for a while.
 */
export const ACP_PROMPTS_HELD_BYTES_MAX = 8 * 1024 * 1024;
/**
 * The most the proxy keeps of each kind: the agent's requests the editor has not replied to yet, the editor's
 * requests whose results it watches, the sessions' folders. Each entry is at most a few KiB (ids and methods
 * ≤ 200 characters, a folder ≤ 4,096), so each map stays under a few MiB; past the bound the oldest goes.
 */
export const ACP_REMEMBERED_MAX = 1_000;

export interface AcpProxyOptions {
  runtime: RuntimeClientProvider;
  /** One line to the editor (the proxy's stdout), without its newline: relayed bytes, or a message of its own. */
  toEditor: (line: Buffer | string) => void;
  /** One line to the agent (its stdin), without its newline. */
  toAgent: (line: Buffer | string) => void;
  log: (line: string) => void;
  /** `--name`: what the phone calls the agent, over `initialize`'s agentInfo. */
  name?: string;
  /** The agent's command, named when neither `--name` nor agentInfo says. */
  command?: string;
}

export interface AcpProxy {
  /** One line from the editor, without its newline; relayed as it came (or dropped: the phone answered first). */
  fromEditor(line: Buffer | string): void;
  /** One line from the agent, without its newline; relayed as it came. */
  fromAgent(line: Buffer | string): void;
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
  /** The proxy's own number for this request: the same JSON-RPC id may come again once it is answered. */
  seq: number;
  /** Only what answering needs (the options, the tool call's id, the form's mode), not the whole message. */
  prompt: Prompt;
  sessionId: string;
  requestId: string;
  controller: AbortController;
  /** The length of the message it came in, counted against ACP_PROMPTS_HELD_BYTES_MAX. */
  bytes: number;
}

/** An agent's request the editor has not replied to; `drop`: the phone answered it, the editor's reply goes nowhere. */
interface Owed {
  seq: number;
  drop: boolean;
}

const keyOf = (id: JsonRpcId) => JSON.stringify(id);

/** Only what answering a prompt needs: a permission's options and tool call id, a form's mode. */
function slim(prompt: Prompt): Prompt {
  if (prompt.kind === 'form')
    return {
      kind: 'form',
      params: {
        mode: prompt.params.mode,
        message: '',
        ...(prompt.params.sessionId !== undefined ? { sessionId: prompt.params.sessionId } : {}),
      },
    };
  const { sessionId, toolCall, options } = prompt.params;
  return { kind: 'permission', params: { sessionId, toolCall: { toolCallId: toolCall.toolCallId }, options } };
}

/**
 * Whether an editor's reply says "cancelled" (a permission's `cancelled` outcome, a form's `cancel`, an error such
 * as -32800): what an editor answers to the proxy's `$/cancel_request`.
 */
function saysCancelled(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const { result, error } = message as { result?: unknown; error?: unknown };
  if (error !== undefined) return true;
  if (typeof result !== 'object' || result === null) return false;
  const { outcome, action } = result as { outcome?: unknown; action?: unknown };
  if (action === 'cancel') return true;
  return typeof outcome === 'object' && outcome !== null && (outcome as { outcome?: unknown }).outcome === 'cancelled';
}

export function createAcpProxy(options: AcpProxyOptions): AcpProxy {
  const { log } = options;
  const proxyId = randomUUID().slice(0, 8);
  const fallbackName = options.command ? path.basename(options.command) : AGENT_NAMES.acp;
  let agent: AgentRef = { kind: 'acp', name: options.name ?? fallbackName };
  /** The elicitation modes the editor advertised in `initialize` (R12.21): only these reach the phone. */
  let editorModes = new Set<string>();
  /** The editor's requests whose results the proxy reads: `initialize`, `session/new`. */
  const watched = new Map<string, { method: string; cwd?: string }>();
  const sessions = new Map<string, string>();
  /** The agent's prompts with a card on the phone, by the proxy's number for them. */
  const tracked = new Map<number, Tracked>();
  let trackedBytes = 0;
  /** The agent's requests the editor owes a reply, by JSON-RPC id, oldest first (R12.21). */
  const owed = new Map<string, Owed[]>();
  let owedCount = 0;
  let seq = 0;
  let client: RuntimeClient | undefined;
  let overflowSaid = false;
  const said = new Set<string>();
  let closed = false;

  /** One log line per kind of trouble for the proxy's whole life: a flood of them must not flood the log. */
  const sayOnce = (kind: string, line: string) => {
    if (said.has(kind)) return;
    said.add(kind);
    log(line);
  };

  /** A bounded map: past ACP_REMEMBERED_MAX the oldest entry goes, said once (R12.19). */
  const bound = <V>(map: Map<string, V>, what: string) => {
    if (map.size <= ACP_REMEMBERED_MAX) return;
    map.delete(map.keys().next().value ?? '');
    sayOnce(`bound:${what}`, `askaway: over ${ACP_REMEMBERED_MAX} ${what}; the oldest are forgotten`);
  };

  /** A line as JSON the proxy may walk, or undefined: not JSON, too long, or past the shape limits (R12.18). */
  const look = (line: Buffer | string, side: 'agent' | 'editor'): unknown => {
    if (line.length > ACP_LINE_READ_MAX) return undefined;
    const parsed = parseBoundedJson(typeof line === 'string' ? line : line.toString('utf8'));
    if (parsed.ok) return parsed.value;
    // A message that looked like one (an object) is worth a line; a program's stray output is not.
    if ((typeof line === 'string' ? line.charCodeAt(0) : line[0]) === 0x7b)
      sayOnce(
        `shape:${side}`,
        `askaway: a message from the ${side} ${parsed.problem}: relayed as it is, not shown on the phone`,
      );
    return undefined;
  };

  const place = (sessionId: string): AcpPlace => {
    const cwd = sessions.get(sessionId);
    return { agent, proxyId, ...(cwd ? { cwd } : {}) };
  };

  /** Each prompt's end as a card without a reply box (R19.60–R19.65). */
  const turns = new AcpFinishedTurnRelay({
    finishedTurns: createFinishedTurns({
      client: () => {
        client = options.runtime.get(agent.name);
        return client;
      },
      log,
    }),
    proxyId,
    place,
    log,
    sayOnce,
  });

  /** The editor now owes a reply to the agent's request `key` (its `seq`th). */
  const owe = (key: string, number: number) => {
    const list = owed.get(key) ?? [];
    list.push({ seq: number, drop: false });
    owed.set(key, list);
    owedCount += 1;
    if (owedCount <= ACP_REMEMBERED_MAX) return;
    const oldest = owed.keys().next().value ?? '';
    const first = owed.get(oldest);
    first?.shift();
    owedCount -= 1;
    if (!first || first.length === 0) owed.delete(oldest);
    sayOnce(
      'bound:owed',
      `askaway: over ${ACP_REMEMBERED_MAX} agent requests without a reply; the oldest are forgotten`,
    );
  };

  /**
   * The agent's request an editor reply with this id answers, taken off the list. Replies come in the order of
   * the requests; an editor that never replied to a request the phone answered would leave it first, so a reply
   * that is not a cancel skips such a one when a newer request with the same id waits behind it.
   */
  const settleOwed = (key: string, message: unknown): Owed | undefined => {
    const list = owed.get(key);
    if (!list) return undefined;
    while (list.length > 1 && list[0]?.drop && !saysCancelled(message) && list.some((entry) => !entry.drop)) {
      list.shift();
      owedCount -= 1;
    }
    const first = list.shift();
    if (first) owedCount -= 1;
    if (list.length === 0) owed.delete(key);
    return first;
  };

  /** Takes a prompt off the list; false when it already was. */
  const untrack = (entry: Tracked): boolean => {
    if (tracked.get(entry.seq) !== entry) return false;
    tracked.delete(entry.seq);
    trackedBytes -= entry.bytes;
    return true;
  };

  const withdraw = (entry: Tracked, reason: string, editorResponse?: InteractionResponse) => {
    if (!untrack(entry)) return;
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
    untrack(entry);
    const pending = owed.get(entry.key)?.find((request) => request.seq === entry.seq);
    if (pending) pending.drop = true;
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

  /** Waits for the phone's answer; never rejects (R12.18): whatever goes wrong leaves the prompt to the editor. */
  const settle = async (entry: Tracked, interaction: DirectInteractionRequest) => {
    try {
      const current = options.runtime.get(agent.name);
      client = current;
      const resolution = await current.broker.requestInteraction(interaction, { signal: entry.controller.signal });
      if (tracked.get(entry.seq) === entry) answer(entry, resolution.response);
      else if (entry.requestId)
        // The editor answered while this answer was on its way: the card says the editor's answer stood.
        current.connection
          .withdraw(entry.requestId, ANSWERED_IN_EDITOR_REASON, { where: 'editor' }, { afterAnswer: true })
          .catch(() => undefined);
    } catch (error) {
      if (entry.controller.signal.aborted) return;
      untrack(entry);
      log(
        error instanceof InvalidInteractionRequestError
          ? `askaway: ${entry.prompt.kind} ${entry.key} cannot be shown on the phone and stays in the editor: ${error.message}`
          : `askaway: ${entry.prompt.kind} ${entry.key} stays in the editor: ${errorMessage(error)}`,
      );
    }
  };

  const ask = (id: JsonRpcId, number: number, prompt: Prompt, bytes: number) => {
    const key = keyOf(id);
    if (closed) return;
    if (tracked.size >= ACP_PROMPTS_HELD_MAX || trackedBytes + bytes > ACP_PROMPTS_HELD_BYTES_MAX) {
      if (!overflowSaid)
        log(
          `askaway: ${tracked.size} prompts (${Math.round(trackedBytes / 1024)} KiB) already on the phone; ` +
            'the rest stay in the editor',
        );
      overflowSaid = true;
      return;
    }
    const sessionId = prompt.params.sessionId ?? 'acp';
    // Each request is a new interaction (R12.21): the proxy's number before the id, so an id the agent uses
    // again after its answer never meets the answer the host keeps for the old one.
    const unique = `${number}-${key}`;
    let interaction: DirectInteractionRequest | { unsupported: string };
    try {
      interaction =
        prompt.kind === 'permission'
          ? permissionInteraction(prompt.params, place(sessionId), unique)
          : formInteraction(prompt.params, place(sessionId), unique);
    } catch (error) {
      log(`askaway: ${prompt.kind} ${key} stays in the editor: ${errorMessage(error)}`);
      return;
    }
    if ('unsupported' in interaction) {
      log(`askaway: form ${key} stays in the editor: ${interaction.unsupported}`);
      return;
    }
    const entry: Tracked = {
      key,
      id,
      seq: number,
      prompt: slim(prompt),
      sessionId,
      requestId: interaction.requestId,
      controller: new AbortController(),
      bytes,
    };
    tracked.set(number, entry);
    trackedBytes += bytes;
    void settle(entry, interaction);
  };

  const onAgentRequest = (id: JsonRpcId, method: string, params: unknown, bytes: number) => {
    seq += 1;
    owe(keyOf(id), seq);
    if (method === 'session/request_permission') {
      turns.asked(params);
      const parsed = RequestPermissionParamsSchema.safeParse(params);
      if (parsed.success) ask(id, seq, { kind: 'permission', params: parsed.data }, bytes);
      else
        sayOnce(
          'unreadable-permission',
          `askaway: unreadable session/request_permission ${keyOf(id)}: it stays in the editor`,
        );
    } else if (method === 'elicitation/create') {
      const parsed = CreateElicitationParamsSchema.safeParse(params);
      // An editor that shows no forms answers "method not found", and one that opens no pages does not open
      // this one: the agent must not get from the phone what the editor would not have given it.
      if (!parsed.success) return;
      if (editorModes.has(parsed.data.mode)) ask(id, seq, { kind: 'form', params: parsed.data }, bytes);
      else
        sayOnce(
          'unadvertised-mode',
          `askaway: form ${keyOf(id)} stays in the editor: it did not offer mode "${parsed.data.mode}"`,
        );
    }
  };

  const onEditorRequest = (id: JsonRpcId, method: string, params: unknown) => {
    if (method === 'session/prompt') turns.prompted(keyOf(id), params);
    else if (method === 'session/close') turns.closed(params);
    else if (method === 'initialize') {
      const parsed = InitializeParamsSchema.safeParse(params);
      const elicitation = parsed.success ? parsed.data.clientCapabilities?.elicitation : undefined;
      editorModes = new Set(
        elicitation ? (['form', 'url'] as const).filter((mode) => elicitation[mode] !== undefined) : [],
      );
      watched.set(keyOf(id), { method });
    } else if (method === 'session/new') {
      const parsed = NewSessionParamsSchema.safeParse(params);
      watched.set(keyOf(id), { method, ...(parsed.success ? { cwd: parsed.data.cwd } : {}) });
    } else if (method === 'session/load') {
      const parsed = LoadSessionParamsSchema.safeParse(params);
      if (parsed.success && parsed.data.cwd) sessions.set(parsed.data.sessionId, parsed.data.cwd);
      bound(sessions, 'sessions');
    }
    bound(watched, 'editor requests watched');
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
        bound(sessions, 'sessions');
      }
    }
  };

  return {
    fromEditor(line) {
      const message = look(line, 'editor');
      const response = JsonRpcResponseSchema.safeParse(message);
      if (response.success && response.data.id !== null && !('method' in (message as object))) {
        const key = keyOf(response.data.id);
        const request = settleOwed(key, message);
        if (request?.drop) return; // The phone answered first: the agent has its answer.
        const entry = request ? tracked.get(request.seq) : undefined;
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
      const message = look(line, 'agent');
      const request = JsonRpcRequestSchema.safeParse(message);
      if (request.success) {
        onAgentRequest(request.data.id, request.data.method, request.data.params, line.length);
        return;
      }
      const response = JsonRpcResponseSchema.safeParse(message);
      if (response.success && response.data.id !== null && !('method' in (message as object))) {
        onAgentResponse(keyOf(response.data.id), response.data.result);
        turns.responded(keyOf(response.data.id), response.data);
        return;
      }
      const notification = JsonRpcNotificationSchema.safeParse(message);
      if (notification.success && notification.data.method === 'session/update') {
        turns.updated(notification.data.params);
        return;
      }
      if (notification.success && notification.data.method === '$/cancel_request') {
        const parsed = CancelRequestParamsSchema.safeParse(notification.data.params);
        const key = parsed.success ? keyOf(parsed.data.requestId) : undefined;
        for (const entry of [...tracked.values()]) if (entry.key === key) withdraw(entry, AGENT_CANCELLED_REASON);
      }
    },
    async close(reason = AGENT_EXITED_REASON) {
      if (closed) return;
      closed = true;
      for (const entry of [...tracked.values()]) withdraw(entry, reason);
      turns.close(reason);
      await options.runtime.close();
    },
    open: () => [...tracked.values()].map((entry) => entry.key),
  };
}
