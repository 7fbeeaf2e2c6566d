// `askaway opencode bridge` (R18.20–R18.27): the other end of the plugin. It holds the runtime connection
// (the same one every bridge uses, a joined machine's included), turns OpenCode's requests into
// interactions, posts the phone's answers back through the plugin and takes a card away when OpenCode
// answered, stopped or closed first.
import {
  BRIDGE_PROMPTS_MAX,
  BRIDGE_REQUESTS_IN_FLIGHT_MAX,
  BRIDGE_SETTLED_IDS_KEPT,
  errorMessage,
  type InteractionResponse,
} from '../../../contracts';
import { type DirectInteractionRequest } from '../../../protocol';
import { InvalidInteractionRequestError } from '../../../protocol';
import { BoundedSet } from '../../bounded-set';
import { createFinishedTurns } from '../../finished-turns';
import { type RuntimeClient } from '../../runtime-broker';
import { type RuntimeClientProvider } from '../../runtime-client-provider';
import { BRIDGE_PROTOCOL, type BridgeMessage, type PluginMessage } from './bridge-protocol';
import {
  OpenCodePermissionRequestSchema,
  OpenCodeQuestionRequestSchema,
  OpenCodeSessionSchema,
  OpenCodeSessionStatusSchema,
  type OpenCodePermissionRequest,
  type OpenCodeQuestionRequest,
  type OpenCodeSession,
} from './opencode-shapes';
import {
  ANSWERED_IN_TERMINAL_REASON,
  answeredBy,
  LATE_ANSWER_NOTE,
  OPENCODE_CLOSED_REASON,
  turnEndedIn,
  TURN_ENDED_REASON,
  withdrawReason,
} from './terminal-answer';
import { createFinishedTurnRelay } from './finished-turn-relay';
import { keptPermission, keptQuestion } from './kept-request';
import { permissionReply, questionReply, type OpenCodeReply } from './to-answer';
import { permissionInteraction, questionInteraction, toQuestionInput } from './to-interaction';

/** How long one call through the plugin may take (they are in-process calls in OpenCode: milliseconds). */
export const PLUGIN_CALL_TIMEOUT_MS = 10_000;
/** After the host could not be reached, OpenCode's pending lists are read again this much later. */
export const RELIST_RETRY_MS = 5_000;
/** Parents followed from a subagent's session up to the top one. */
const MAX_SESSION_DEPTH = 16;
/**
 * A turn that ends without an answer retires its cards this much later: OpenCode closing aborts every busy
 * session first, and the card should then say that OpenCode closed, which the plugin says right after.
 */
export const TURN_END_GRACE_MS = 500;
/**
 * Directory instances of one OpenCode process the bridge keeps (R12.19): OpenCode opens one per project folder
 * a session works in, a handful at a time. Past this the oldest is forgotten (its cards withdrawn), in one log line.
 */
export const OPENCODE_INSTANCES_KEPT = 64;
/** What the log shows of a value OpenCode sent (an error, an event's type). */
const SHOWN_MAX = 200;
const shown = (text: string) => (text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX - 1)}…` : text);
/** An error OpenCode answered, as text (its shape was checked with the line, so stringifying it cannot overflow). */
function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return 'an unreadable error';
  }
}

export interface OpenCodeBridgeOptions {
  runtime: RuntimeClientProvider;
  /** Writes one message to the plugin (a JSON line on stdout). */
  send: (message: BridgeMessage) => void;
  log: (line: string) => void;
  callTimeoutMs?: number;
  relistRetryMs?: number;
  turnEndGraceMs?: number;
  /** Prompts carried to the phone at once (default BRIDGE_PROMPTS_MAX); the rest stay in OpenCode (R12.17). */
  maxPrompts?: number;
  /** Calls waiting on the plugin at once (default BRIDGE_REQUESTS_IN_FLIGHT_MAX); more fail at once (R12.19). */
  maxCalls?: number;
  /** Directory instances kept (default OPENCODE_INSTANCES_KEPT); the oldest goes first (R12.19). */
  maxInstances?: number;
  /** How long a finished turn settles before its card (default TURN_SETTLE_MS, R19.30). */
  turnSettleMs?: number;
}

export interface OpenCodeBridge {
  receive(message: PluginMessage): void;
  /** OpenCode is gone (the plugin's pipe closed): withdraw every open card, then close the connection. */
  close(reason?: string): Promise<void>;
  /** OpenCode request ids with a card open or on its way (diagnostics, tests). */
  open(): string[];
}

type Kind = 'question' | 'permission';
type Request = OpenCodeQuestionRequest | OpenCodePermissionRequest;

/** Only what a card reads of a request, as strings of its own, goes on from the line it came in (R12.19). */
const kept = (kind: Kind, request: Request): Request =>
  kind === 'question'
    ? keptQuestion(request as OpenCodeQuestionRequest)
    : keptPermission(request as OpenCodePermissionRequest);

interface Tracked {
  openCodeId: string;
  instance: number;
  sessionID: string;
  requestId: string;
  controller: AbortController;
  /** The phone answered and the reply is on its way to OpenCode: its own `*.replied` echo is ours. */
  answering: boolean;
}

interface CallResult {
  status: number;
  data?: unknown;
  error?: unknown;
}

export function createOpenCodeBridge(options: OpenCodeBridgeOptions): OpenCodeBridge {
  const { log } = options;
  const callTimeoutMs = options.callTimeoutMs ?? PLUGIN_CALL_TIMEOUT_MS;
  /** Directory instances; `known` settles once OpenCode said its version (the agent chip shows it). */
  const instances = new Map<number, { directory: string; version?: string; known?: Promise<void> }>();
  const tracked = new Map<string, Tracked>();
  /** Ids of requests already answered or retired, so a listing or a late event does not revive them (bounded, R12.17). */
  const finished = new BoundedSet(BRIDGE_SETTLED_IDS_KEPT);
  /** The bridge's last permission reply per session: OpenCode carries a reject or an always over to the others. */
  const lastReply = new Map<string, string>();
  const maxPrompts = options.maxPrompts ?? BRIDGE_PROMPTS_MAX;
  /** Said in the log once per flood, not once per prompt (R12.17). */
  let overflowSaid = false;
  /** Why the last prompt stayed in OpenCode: a run of them for one reason is one log line. */
  let lastStayedFor = '';
  const calls = new Map<number, (result: CallResult) => void>();
  const maxCalls = options.maxCalls ?? BRIDGE_REQUESTS_IN_FLIGHT_MAX;
  const maxInstances = options.maxInstances ?? OPENCODE_INSTANCES_KEPT;
  /** Said once per flood of calls the plugin leaves unanswered, and of directories (R12.19). */
  let callsFullSaid = false;
  let instancesFullSaid = false;
  /** The last listing failure said: the same one again, hello after hello, is not said again. */
  let lastListFailure = '';
  let nextCall = 1;
  let client: RuntimeClient | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** One grace timer per session whose turn ended, with the cards it retires: at most one per tracked session. */
  const endTimers = new Map<string, { timer: ReturnType<typeof setTimeout>; ending: Set<Tracked> }>();
  let closed = false;

  const finish = (openCodeId: string) => finished.add(openCodeId);

  const remember = (sessionID: string, reply: string) => {
    lastReply.delete(sessionID);
    lastReply.set(sessionID, reply);
    if (lastReply.size > BRIDGE_SETTLED_IDS_KEPT) lastReply.delete(lastReply.keys().next().value ?? '');
  };

  /** A prompt too many (R12.17): not announced and not remembered, so a later listing may still bring it. */
  const overflow = () => {
    if (overflowSaid) return;
    overflowSaid = true;
    log(`askaway: ${maxPrompts} prompts already wait on the phone: further ones stay in OpenCode (said once)`);
  };

  const stayed = (openCodeId: string, why: string) => {
    if (why === lastStayedFor) return;
    lastStayedFor = why;
    log(`askaway: ${openCodeId} stays in OpenCode for now: ${why}`);
  };

  const call = (instance: number, method: 'GET' | 'POST', url: string, body?: unknown): Promise<CallResult> =>
    new Promise((resolve) => {
      // A plugin that answers nothing (or a flood of hellos) holds no more than this many timers and entries.
      if (calls.size >= maxCalls) {
        if (!callsFullSaid)
          log(`askaway: ${maxCalls} calls to OpenCode wait for an answer: further ones fail at once (said once)`);
        callsFullSaid = true;
        resolve({ status: 0, error: `${maxCalls} calls to the plugin wait already` });
        return;
      }
      if (calls.size < maxCalls / 2) callsFullSaid = false;
      const id = nextCall;
      nextCall += 1;
      const timer = setTimeout(() => {
        calls.delete(id);
        resolve({ status: 0, error: `no answer from the plugin within ${callTimeoutMs} ms` });
      }, callTimeoutMs);
      calls.set(id, (result) => {
        clearTimeout(timer);
        calls.delete(id);
        resolve(result);
      });
      options.send({ type: 'request', id, instance, method, url, ...(body === undefined ? {} : { body }) });
    });

  /** The runtime connection, made on first use; each (re)connection reads OpenCode's lists again (R18.26). */
  const runtime = (): RuntimeClient => {
    const current = options.runtime.get('OpenCode');
    if (current !== client) {
      client = current;
      current.connection.onConnectionChange((connected) => {
        if (connected && current === client) for (const instance of instances.keys()) void relist(instance);
      });
    }
    return current;
  };

  /** Finished turns of the instances' sessions (R19.30). */
  const turns = createFinishedTurnRelay({
    finishedTurns: createFinishedTurns({ client: () => runtime(), log }),
    call,
    place: (instance) => instances.get(instance),
    log,
    ...(options.turnSettleMs === undefined ? {} : { settleMs: options.turnSettleMs }),
  });

  const scheduleRelist = () => {
    if (retryTimer || closed) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      for (const instance of instances.keys()) void relist(instance);
    }, options.relistRetryMs ?? RELIST_RETRY_MS);
    retryTimer.unref?.();
  };

  /** The asking session and its parents, up to the top one (R18.22). */
  const sessionChain = async (instance: number, sessionID: string): Promise<OpenCodeSession[]> => {
    const chain: OpenCodeSession[] = [];
    let next: string | undefined = sessionID;
    while (next && chain.length < MAX_SESSION_DEPTH && !chain.some((session) => session.id === next)) {
      const result = await call(instance, 'GET', `/session/${encodeURIComponent(next)}`);
      const parsed = OpenCodeSessionSchema.safeParse(result.data);
      if (result.status !== 200 || !parsed.success) break;
      chain.push(parsed.data);
      next = parsed.data.parentID;
    }
    return chain;
  };

  const withdraw = (entry: Tracked, reason: string) => {
    tracked.delete(entry.openCodeId);
    finish(entry.openCodeId);
    // Say why on the phone before the broker's own "aborted" withdrawal.
    // Answered in OpenCode: the phone says so, in History too (R18.6).
    const terminalAnswer = reason === ANSWERED_IN_TERMINAL_REASON ? {} : undefined;
    if (entry.requestId) client?.connection.withdraw(entry.requestId, reason, terminalAnswer).catch(() => undefined);
    entry.controller.abort(new Error(reason));
    log(`askaway: ${entry.openCodeId} withdrawn from the phone: ${reason}`);
  };

  /**
   * How the phone's answer goes back, keeping of OpenCode's request only what that needs (its id, the questions'
   * texts and whether each takes several): a card waits for days, and the request it came from may be megabytes.
   */
  const replyTo = (kind: Kind, request: Request): ((response: InteractionResponse) => OpenCodeReply) => {
    const id = request.id;
    if (kind === 'permission') return (response) => permissionReply(id, response);
    const question = request as OpenCodeQuestionRequest;
    const asked = { questions: toQuestionInput(question).questions.map((item) => ({ question: item.question })) };
    const multiple = question.questions.map((item) => item.multiple === true);
    return (response) => questionReply(id, asked, multiple, response);
  };

  const answer = async (entry: Tracked, kind: Kind, reply: OpenCodeReply) => {
    entry.answering = true;
    const id = entry.openCodeId;
    if (kind === 'permission') remember(entry.sessionID, (reply.body as { reply: string }).reply);
    const result = await call(entry.instance, 'POST', reply.url, reply.body);
    if (result.status === 200) log(`askaway: ${id} ${reply.summary} on the phone`);
    else if (result.status === 404) {
      log(`askaway: ${id}: the phone's answer came late, ${LATE_ANSWER_NOTE}`);
      // The phone's receipt and History say the terminal's answer won, not that this one reached the agent.
      if (entry.requestId)
        client?.connection
          .withdraw(entry.requestId, ANSWERED_IN_TERMINAL_REASON, {}, { afterAnswer: true })
          .catch(() => undefined);
    } else log(`askaway: ${id}: OpenCode refused the answer (${result.status}): ${shown(errorText(result.error))}`);
  };

  const asked = async (instance: number, kind: Kind, request: Request) => {
    if (tracked.has(request.id) || finished.has(request.id) || closed) return;
    const where = instances.get(instance);
    if (!where) return;
    if (tracked.size >= maxPrompts) return overflow();
    if (tracked.size < maxPrompts / 2) overflowSaid = false;
    const entry: Tracked = {
      openCodeId: request.id,
      instance,
      sessionID: request.sessionID,
      requestId: '',
      controller: new AbortController(),
      answering: false,
    };
    tracked.set(request.id, entry);
    let carried = false;
    try {
      const [chain] = await Promise.all([sessionChain(instance, request.sessionID), where.known]);
      if (entry.controller.signal.aborted) return;
      const place = { directory: where.directory, chain, ...(where.version ? { version: where.version } : {}) };
      const interaction =
        kind === 'question'
          ? questionInteraction(request as OpenCodeQuestionRequest, place)
          : permissionInteraction(request as OpenCodePermissionRequest, place);
      entry.requestId = interaction.requestId;
      lastStayedFor = '';
      // Not awaited here: this call (and OpenCode's request with it) ends now, and the wait keeps only the card.
      carried = true;
      void carry(entry, kind, interaction, replyTo(kind, request));
    } finally {
      if (!carried) {
        if (tracked.get(request.id) === entry) tracked.delete(request.id);
        finish(request.id);
      }
    }
  };

  /** The card on the phone until it is answered or withdrawn, then the answer back to OpenCode. */
  const carry = async (
    entry: Tracked,
    kind: Kind,
    interaction: DirectInteractionRequest,
    reply: (response: InteractionResponse) => OpenCodeReply,
  ) => {
    const id = entry.openCodeId;
    let gaveUp = false;
    try {
      const resolution = await runtime().broker.requestInteraction(interaction, { signal: entry.controller.signal });
      await answer(entry, kind, reply(resolution.response));
    } catch (error) {
      if (entry.controller.signal.aborted) return;
      if (error instanceof InvalidInteractionRequestError) {
        log(`askaway: ${id} cannot be shown on the phone and stays in OpenCode: ${error.message}`);
      } else {
        // No host to ask (not started, no token): OpenCode still asks in the terminal; try again later.
        gaveUp = true;
        stayed(id, errorMessage(error));
        scheduleRelist();
      }
    } finally {
      if (tracked.get(id) === entry) tracked.delete(id);
      if (!gaveUp) finish(id);
    }
  };

  /** What OpenCode lists as pending, announced (R18.26); a ghost of an aborted turn (idle session) is left out. */
  const relist = async (instance: number) => {
    if (!instances.has(instance) || closed) return;
    // Only what was open before the lists were read can be missing from them.
    const before = new Set(tracked.values());
    const [questions, permissions, status] = await Promise.all([
      call(instance, 'GET', '/question'),
      call(instance, 'GET', '/permission'),
      call(instance, 'GET', '/session/status'),
    ]);
    if (questions.status !== 200 || permissions.status !== 200) {
      const failure = `askaway: could not list OpenCode's pending prompts (${questions.status}, ${permissions.status})`;
      if (failure !== lastListFailure) log(failure);
      lastListFailure = failure;
      return;
    }
    lastListFailure = '';
    const statuses = OpenCodeSessionStatusSchema.safeParse(status.data);
    const waiting = (sessionID: string) =>
      !statuses.success || (statuses.data[sessionID] !== undefined && statuses.data[sessionID].type !== 'idle');
    const listed = new Set<string>();
    const each = <T extends Request>(
      data: unknown,
      schema: { safeParse(raw: unknown): { success: boolean; data?: T } },
      kind: Kind,
    ) => {
      for (const raw of Array.isArray(data) ? data : []) {
        const parsed = schema.safeParse(raw);
        if (!parsed.success || !parsed.data) continue;
        listed.add(parsed.data.id);
        if (waiting(parsed.data.sessionID)) void asked(instance, kind, kept(kind, parsed.data));
        else finish(parsed.data.id);
      }
    };
    each(questions.data, OpenCodeQuestionRequestSchema, 'question');
    each(permissions.data, OpenCodePermissionRequestSchema, 'permission');
    log(`askaway: OpenCode lists ${listed.size} pending prompt${listed.size === 1 ? '' : 's'}`);
    // A card whose request OpenCode no longer lists lost its event (a reconnect gap): it waits for nothing.
    for (const entry of [...tracked.values()])
      if (before.has(entry) && entry.instance === instance && !entry.answering && !listed.has(entry.openCodeId))
        withdraw(entry, TURN_ENDED_REASON);
  };

  /** A new directory instance: OpenCode's version for the agent chip, then what already waits. */
  const hello = async (instance: number, where: { directory: string; version?: string; known?: Promise<void> }) => {
    where.known = call(instance, 'GET', '/global/health').then((health) => {
      const version = (health.data as { version?: unknown } | undefined)?.version;
      if (typeof version === 'string' && version.length <= 80) where.version = version;
    });
    await where.known;
    log(`askaway: OpenCode ${where.version ?? '(version unknown)'} in ${where.directory}`);
    await relist(instance);
  };

  const onEvent = (instance: number, event: { type: string; properties: unknown }) => {
    turns.onEvent(instance, event);
    if (event.type === 'question.asked' || event.type === 'permission.asked') {
      const kind: Kind = event.type === 'question.asked' ? 'question' : 'permission';
      const parsed = (kind === 'question' ? OpenCodeQuestionRequestSchema : OpenCodePermissionRequestSchema).safeParse(
        event.properties,
      );
      if (parsed.success) void asked(instance, kind, kept(kind, parsed.data));
      else
        log(
          `askaway: unreadable ${event.type}: ${shown(parsed.error.issues.map((issue) => issue.message).join('; '))}`,
        );
      return;
    }
    const answered = answeredBy(event);
    if (answered) {
      const entry = tracked.get(answered.requestID);
      if (entry && !entry.answering)
        withdraw(entry, withdrawReason(answered, answered.sessionID ? lastReply.get(answered.sessionID) : undefined));
      else finish(answered.requestID);
      return;
    }
    // An abort leaves its requests listed and answerable (200, to no effect): the session's turn is over.
    const ended = turnEndedIn(event);
    if (ended === undefined) return;
    const ending = [...tracked.values()].filter((entry) => entry.sessionID === ended && !entry.answering);
    if (ending.length === 0) return;
    // A burst of turn ends for one session is one timer, not one each (R12.19).
    const pending = endTimers.get(ended);
    if (pending) {
      for (const entry of ending) pending.ending.add(entry);
      return;
    }
    const retiring = new Set(ending);
    const timer = setTimeout(() => {
      endTimers.delete(ended);
      for (const entry of retiring)
        if (tracked.get(entry.openCodeId) === entry && !entry.answering) withdraw(entry, TURN_ENDED_REASON);
    }, options.turnEndGraceMs ?? TURN_END_GRACE_MS);
    endTimers.set(ended, { timer, ending: retiring });
  };

  const closeInstance = (instance: number, reason: string) => {
    turns.closeInstance(instance);
    for (const entry of [...tracked.values()]) if (entry.instance === instance) withdraw(entry, reason);
    instances.delete(instance);
  };

  return {
    receive(message) {
      if (closed) return;
      switch (message.type) {
        case 'hello':
          if (message.protocol !== BRIDGE_PROTOCOL)
            log(
              `askaway: the OpenCode plugin speaks protocol ${message.protocol}, this bridge ${BRIDGE_PROTOCOL}: run askaway opencode install again`,
            );
          {
            if (!instances.has(message.instance) && instances.size >= maxInstances) {
              const [oldest] = instances.keys();
              if (oldest !== undefined) closeInstance(oldest, OPENCODE_CLOSED_REASON);
              if (!instancesFullSaid)
                log(
                  `askaway: more than ${maxInstances} OpenCode directories at once: the oldest are forgotten (said once)`,
                );
              instancesFullSaid = true;
            } else if (instances.size < maxInstances / 2) instancesFullSaid = false;
            const where = { directory: message.directory };
            instances.set(message.instance, where);
            void hello(message.instance, where);
          }
          return;
        case 'event':
          if (instances.has(message.instance)) onEvent(message.instance, message.event);
          return;
        case 'response':
          calls.get(message.id)?.({ status: message.status, data: message.data, error: message.error });
          return;
        case 'bye':
          closeInstance(message.instance, OPENCODE_CLOSED_REASON);
          return;
      }
    },
    async close(reason = OPENCODE_CLOSED_REASON) {
      if (closed) return;
      for (const instance of [...instances.keys()]) closeInstance(instance, reason);
      turns.close();
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      for (const { timer } of endTimers.values()) clearTimeout(timer);
      for (const resolve of [...calls.values()]) resolve({ status: 0, error: 'the bridge is closing' });
      await options.runtime.close();
    },
    open: () => [...tracked.keys()],
  };
}
