// The Copilot bridge (R18.30–R18.35): a second client of the TUI's `--ui-server` port. It resumes the session
// the TUI shows (and each one it switches to) without touching the TUI, carries each permission prompt and
// `ask_user` form to the phone through the runtime connection every bridge uses (a joined machine's
// included), answers with the phone's answer, and takes a card away when the TUI answered first. Each finished
// turn is a card too, whose reply becomes the session's next prompt (finished-turn-relay.ts).
import { errorMessage, ID_MAX, type InteractionContext, type InteractionResolution } from '../../../contracts';
import { InvalidInteractionRequestError } from '../../../protocol';
import { createFinishedTurns } from '../../finished-turns';
import { type RuntimeClient } from '../../runtime-broker';
import { type RuntimeClientProvider } from '../../runtime-client-provider';
import { approxBytes, BoundedQueue } from './bounded-queue';
import {
  ConnectResultSchema,
  ElicitationCompletedSchema,
  ElicitationRequestedSchema,
  ForegroundResultSchema,
  HandledSchema,
  LifecycleParamsSchema,
  PendingPermissionsSchema,
  PermissionCompletedSchema,
  PermissionRequestedSchema,
  SessionEventParamsSchema,
  SubagentStartedSchema,
  TitleChangedSchema,
  type CopilotPrompt,
  type ElicitationRequested,
} from './copilot-shapes';
import { CopilotTurnRelay } from './finished-turn-relay';
import { connectRpc, type RpcConnection } from './json-rpc';
import {
  ANSWERED_IN_TERMINAL_REASON,
  COPILOT_CLOSED_REASON,
  formSettled,
  LATE_ANSWER_NOTE,
  permissionSettled,
} from './terminal-answer';
import { formReply, permissionReply, type CopilotReply } from './to-answer';
import {
  COPILOT_AGENT,
  formInteraction,
  formOf,
  permissionInteraction,
  type CopilotPlace,
  type PermissionDecision,
} from './to-interaction';

/** How long the bridge keeps trying to reach the port of the Copilot it started (the TUI listens within ~3 s). */
export const ATTACH_TIMEOUT_MS = 60_000;
export const ATTACH_RETRY_MS = 100;
/** Prompts on the phone at once; more stay in the terminal only (R18.35). */
export const MAX_HELD_PROMPTS = 64;
/** After the host could not be reached, what Copilot still waits for is asked again this much later. */
export const REASK_RETRY_MS = 5_000;
/** Ids of prompts already answered or retired, remembered so a listing or a late event does not revive them. */
const FINISHED_KEPT = 2_000;
/** Sessions followed, subagents and titles remembered: bounded like everything a long TUI run feeds. */
const SESSIONS_KEPT = 200;
/**
 * Prompts Copilot waits on that the bridge keeps to ask (again) when the hub is back, in count and bytes (R12.19):
 * while the hub cannot be reached, Copilot decides how many arrive. Past either limit the oldest stays in the
 * terminal only.
 */
export const WAITING_KEPT = 256;
export const WAITING_BYTES_MAX = 64 * 1024 * 1024;

export interface CopilotBridgeOptions {
  runtime: RuntimeClientProvider;
  /** The `--ui-server` port of the Copilot this process started. */
  port: number;
  /** The TUI's working directory (Copilot's sessions do not say theirs). */
  cwd: string;
  log: (line: string) => void;
  attachTimeoutMs?: number;
  attachRetryMs?: number;
  maxHeld?: number;
  reaskRetryMs?: number;
  /**
   * Before anything is sent or relayed: undefined when the far end of the connection (this end's port given) is
   * the Copilot this process started, else why not (R12.22; peer-process.ts).
   */
  verifyPeer: (localPort: number) => Promise<string | undefined>;
  waitingLimits?: { count: number; bytes: number };
}

export interface CopilotBridge {
  /** Resolves true once attached to Copilot's port and its foreground session, false if it never was. */
  readonly attached: Promise<boolean>;
  /** Copilot is gone (or this process stops): withdraw every open card, then close both connections. */
  close(reason?: string): Promise<void>;
  /** Copilot request ids with a card open or on its way (diagnostics, tests). */
  open(): string[];
}

type Kind = 'permission' | 'form';

interface Tracked {
  copilotId: string;
  kind: Kind;
  sessionId: string;
  requestId: string;
  choiceIds: string[];
  controller: AbortController;
  /** The phone answered and the reply is on its way: Copilot's own `*.completed` echo is ours. */
  answering: boolean;
}

/** What Copilot waits for, kept so it can be asked again when the host was not reachable. */
type Waiting =
  | { kind: 'permission'; sessionId: string; copilotId: string; prompt: CopilotPrompt; agentId?: string }
  | { kind: 'form'; sessionId: string; copilotId: string; request: ElicitationRequested; agentId?: string };

const bounded = <K, V>(map: Map<K, V>, key: K, value: V) => {
  map.set(key, value);
  if (map.size > SESSIONS_KEPT) map.delete(map.keys().next().value as K);
};

export function createCopilotBridge(options: CopilotBridgeOptions): CopilotBridge {
  const { log } = options;
  const maxHeld = options.maxHeld ?? MAX_HELD_PROMPTS;
  const tracked = new Map<string, Tracked>();
  const waiting = new BoundedQueue<Waiting>(
    options.waitingLimits ?? { count: WAITING_KEPT, bytes: WAITING_BYTES_MAX },
    (copilotId, first) => {
      if (first)
        log(
          `askaway: ${copilotId} and older prompts are left to the terminal: more than the bridge keeps wait for the hub`,
        );
    },
  );
  const finished = new Set<string>();
  const followed = new Set<string>();
  const titles = new Map<string, string>();
  const subagents = new Map<string, { name: string; agentType?: string }>();
  let rpc: RpcConnection | undefined;
  let version: string | undefined;
  let client: RuntimeClient | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const turns = new CopilotTurnRelay({
    finishedTurns: createFinishedTurns({ client: () => runtime(), log }),
    log,
    agent: () => (version ? { ...COPILOT_AGENT, version } : COPILOT_AGENT),
    context: (sessionId): InteractionContext => {
      const title = titles.get(sessionId);
      return { cwd: options.cwd.slice(0, 1_000), ...(title ? { sessionTitle: title } : {}) };
    },
  });

  const finish = (copilotId: string) => {
    waiting.delete(copilotId);
    finished.add(copilotId);
    if (finished.size > FINISHED_KEPT) finished.delete(finished.values().next().value ?? '');
  };

  /** The runtime connection, made on first use; each reconnection asks again what Copilot still waits for. */
  const runtime = (): RuntimeClient => {
    const current = options.runtime.get('Copilot');
    if (current !== client) {
      client = current;
      current.connection.onConnectionChange((connected) => {
        if (connected && current === client) reaskAll();
      });
    }
    return current;
  };

  const reaskAll = () => {
    for (const entry of waiting.values()) if (!tracked.has(entry.copilotId)) carry(entry);
  };

  const scheduleReask = () => {
    if (retryTimer || closed) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      reaskAll();
    }, options.reaskRetryMs ?? REASK_RETRY_MS);
    retryTimer.unref?.();
  };

  const placeOf = (sessionId: string, agentId: string | undefined): CopilotPlace => {
    const subagent = agentId ? subagents.get(agentId) : undefined;
    const title = titles.get(sessionId);
    return {
      sessionId,
      cwd: options.cwd,
      ...(title ? { title } : {}),
      ...(version ? { version } : {}),
      ...(agentId
        ? {
            subagent: {
              agentId,
              name: subagent?.name ?? 'subagent',
              ...(subagent?.agentType ? { agentType: subagent.agentType } : {}),
            },
          }
        : {}),
    };
  };

  const withdraw = (
    entry: Tracked,
    reason: string,
    terminalAnswer?: Parameters<RuntimeClient['connection']['withdraw']>[2],
  ) => {
    tracked.delete(entry.copilotId);
    finish(entry.copilotId);
    // Say why on the phone before the broker's own "aborted" withdrawal.
    if (entry.requestId) client?.connection.withdraw(entry.requestId, reason, terminalAnswer).catch(() => undefined);
    entry.controller.abort(new Error(reason));
    log(`askaway: ${entry.copilotId} withdrawn from the phone: ${reason}`);
  };

  const reply = async (entry: Tracked, answer: CopilotReply) => {
    entry.answering = true;
    const connection = rpc;
    if (!connection) return;
    try {
      const handled = HandledSchema.safeParse(await connection.call(answer.method, answer.params));
      if (handled.success && handled.data.success) {
        log(`askaway: ${entry.copilotId} ${answer.summary} on the phone`);
        return;
      }
      log(`askaway: ${entry.copilotId}: the phone's answer came late, ${LATE_ANSWER_NOTE}`);
      // The phone's receipt and History say the terminal's answer won, not that this one reached Copilot.
      client?.connection
        .withdraw(entry.requestId, ANSWERED_IN_TERMINAL_REASON, {}, { afterAnswer: true })
        .catch(() => undefined);
    } catch (error) {
      log(`askaway: ${entry.copilotId}: Copilot did not take the answer: ${errorMessage(error)}`);
    }
  };

  const ask = async (what: Waiting) => {
    if (tracked.has(what.copilotId) || finished.has(what.copilotId) || closed) return;
    if (tracked.size >= maxHeld) {
      log(`askaway: ${what.copilotId} stays in the terminal: ${maxHeld} prompts are on the phone already`);
      return;
    }
    const place = placeOf(what.sessionId, what.agentId);
    let decisions: Record<string, PermissionDecision> = {};
    let interaction;
    if (what.kind === 'permission') {
      ({ interaction, decisions } = permissionInteraction(what.copilotId, what.prompt, place));
    } else {
      const input = formOf(what.request);
      if ('unsupported' in input) {
        log(`askaway: ${what.copilotId} stays in the terminal: ${input.unsupported}`);
        finish(what.copilotId);
        return;
      }
      interaction = formInteraction(what.request, input, place);
    }
    const entry: Tracked = {
      copilotId: what.copilotId,
      kind: what.kind,
      sessionId: what.sessionId,
      requestId: interaction.requestId,
      choiceIds: Object.keys(decisions),
      controller: new AbortController(),
      answering: false,
    };
    tracked.set(what.copilotId, entry);
    let gaveUp = false;
    try {
      const resolution: InteractionResolution = await runtime().broker.requestInteraction(interaction, {
        signal: entry.controller.signal,
      });
      await reply(
        entry,
        what.kind === 'permission'
          ? permissionReply(what.sessionId, what.copilotId, decisions, resolution.response)
          : formReply(what.sessionId, what.copilotId, resolution.response),
      );
    } catch (error) {
      if (entry.controller.signal.aborted) return;
      if (error instanceof InvalidInteractionRequestError) {
        log(`askaway: ${what.copilotId} cannot be shown on the phone and stays in the terminal: ${error.message}`);
      } else {
        // No host to ask (not started, unreachable): Copilot's TUI asks as ever; try again later.
        gaveUp = true;
        // Kept to ask again, within WAITING_KEPT and WAITING_BYTES_MAX (R12.19); said once, not at every retry.
        const again = waiting.has(what.copilotId);
        waiting.set(what.copilotId, what, approxBytes(what.kind === 'permission' ? what.prompt : what.request));
        if (!again) log(`askaway: ${what.copilotId} stays in the terminal for now: ${errorMessage(error)}`);
        scheduleReask();
      }
    } finally {
      if (tracked.get(what.copilotId) === entry) tracked.delete(what.copilotId);
      if (!gaveUp) finish(what.copilotId);
    }
  };

  /**
   * Every prompt goes through here, never a bare floating promise: whatever goes wrong making its card, it stays
   * in the terminal with a log line, and nothing rejects unseen (R12.18).
   */
  const carry = (what: Waiting) => {
    ask(what).catch((error: unknown) => {
      tracked.delete(what.copilotId);
      finish(what.copilotId);
      log(`askaway: ${what.copilotId} cannot be shown on the phone and stays in the terminal: ${errorMessage(error)}`);
    });
  };

  const settled = (copilotId: string, how: () => ReturnType<typeof permissionSettled>) => {
    const entry = tracked.get(copilotId);
    if (entry && !entry.answering) {
      const { reason, terminalAnswer } = how();
      withdraw(entry, reason, terminalAnswer);
    } else finish(copilotId);
  };

  const onSessionEvent = (params: unknown) => {
    const parsed = SessionEventParamsSchema.safeParse(params);
    if (!parsed.success) return;
    const { sessionId, event } = parsed.data;
    // Kept as a map key (subagents): no longer than any id the host takes.
    const agentId = event.agentId ? event.agentId.slice(0, ID_MAX) : undefined;
    turns.onEvent(sessionId, event);
    switch (event.type) {
      case 'permission.requested': {
        const data = PermissionRequestedSchema.safeParse(event.data);
        if (!data.success) return log(`askaway: unreadable permission.requested from Copilot`);
        if (data.data.resolvedByHook) return;
        const prompt = data.data.promptRequest;
        if (!prompt) return log(`askaway: ${data.data.requestId} has no prompt to show; it stays in the terminal`);
        carry({
          kind: 'permission',
          sessionId,
          copilotId: data.data.requestId,
          prompt,
          ...(agentId ? { agentId } : {}),
        });
        return;
      }
      case 'permission.completed': {
        const data = PermissionCompletedSchema.safeParse(event.data);
        if (!data.success) return;
        settled(data.data.requestId, () =>
          permissionSettled(data.data.result, tracked.get(data.data.requestId)?.choiceIds ?? []),
        );
        return;
      }
      case 'elicitation.requested': {
        const data = ElicitationRequestedSchema.safeParse(event.data);
        if (!data.success) return log(`askaway: unreadable elicitation.requested from Copilot`);
        carry({
          kind: 'form',
          sessionId,
          copilotId: data.data.requestId,
          request: data.data,
          ...(agentId ? { agentId } : {}),
        });
        return;
      }
      case 'elicitation.completed': {
        const data = ElicitationCompletedSchema.safeParse(event.data);
        if (data.success) settled(data.data.requestId, () => formSettled(data.data));
        return;
      }
      case 'subagent.started': {
        const data = SubagentStartedSchema.safeParse(event.data);
        if (data.success && agentId) {
          // Kept for the session's life: as long as the card shows them, no longer (R12.19).
          const name = (data.data.agentDisplayName || data.data.agentName || 'subagent').slice(0, 80);
          const agentType = (data.data.agentType || data.data.agentName)?.slice(0, ID_MAX);
          bounded(subagents, agentId, { name, ...(agentType ? { agentType } : {}) });
        }
        return;
      }
      case 'session.title_changed': {
        const data = TitleChangedSchema.safeParse(event.data);
        const title = data.success ? data.data.title.trim().slice(0, ID_MAX) : '';
        if (title !== '') bounded(titles, sessionId, title);
        return;
      }
      default:
        return;
    }
  };

  /** Resumes a session as a second client (the TUI is untouched), then asks what already waits in it. */
  const follow = async (connection: RpcConnection, sessionId: string) => {
    if (followed.has(sessionId) || closed) return;
    followed.add(sessionId);
    if (followed.size > SESSIONS_KEPT) followed.delete(followed.values().next().value ?? '');
    try {
      await connection.call('session.resume', { sessionId, disableResume: true, continuePendingWork: true });
      const pending = PendingPermissionsSchema.safeParse(
        await connection.call('session.permissions.pendingRequests', { sessionId }),
      );
      if (pending.success)
        for (const item of pending.data.items)
          carry({ kind: 'permission', sessionId, copilotId: item.requestId, prompt: item.request });
      log(`askaway: following Copilot session ${sessionId}`);
    } catch (error) {
      followed.delete(sessionId);
      log(`askaway: could not follow Copilot session ${sessionId}: ${errorMessage(error)}`);
    }
  };

  const attachOnce = async (connection: RpcConnection) => {
    connection.onNotification((method, params) => {
      if (closed) return;
      if (method === 'session.event') onSessionEvent(params);
      else if (method === 'session.lifecycle') {
        const parsed = LifecycleParamsSchema.safeParse(params);
        if (parsed.success && parsed.data.type === 'session.foreground')
          follow(connection, parsed.data.sessionId).catch((error: unknown) =>
            log(`askaway: could not follow Copilot session ${parsed.data.sessionId}: ${errorMessage(error)}`),
          );
      }
    });
    connection.onClose(() => {
      if (closed) return;
      for (const entry of [...tracked.values()]) withdraw(entry, COPILOT_CLOSED_REASON);
      turns.close();
      waiting.clear();
      log('askaway: Copilot closed its port');
    });
    const hello = ConnectResultSchema.safeParse(await connection.call('connect', {}));
    if (hello.success && hello.data.version && hello.data.version.length <= 80) version = hello.data.version;
    const foreground = ForegroundResultSchema.safeParse(await connection.call('session.getForeground', {}));
    log(`askaway: attached to Copilot ${version ?? '(version unknown)'} on port ${options.port}`);
    const sessionId = foreground.success ? foreground.data.sessionId : undefined;
    if (sessionId) await follow(connection, sessionId);
  };

  const attach = async (): Promise<boolean> => {
    const deadline = Date.now() + (options.attachTimeoutMs ?? ATTACH_TIMEOUT_MS);
    while (!closed) {
      let connection: RpcConnection | undefined;
      try {
        connection = await connectRpc(options.port, log);
      } catch {
        if (Date.now() >= deadline) {
          log(`askaway: Copilot's port ${options.port} never answered; its prompts stay in the terminal`);
          return false;
        }
        await new Promise((resolve) => setTimeout(resolve, options.attachRetryMs ?? ATTACH_RETRY_MS));
        continue;
      }
      if (closed) {
        connection.close();
        return false;
      }
      // Nothing is sent or relayed before the far end is known to be the Copilot this process started: a local
      // process that bound the port first would put its own prompts on the phone as Copilot's (R12.22).
      const impostor = await options.verifyPeer(connection.localPort).catch((error: unknown) => errorMessage(error));
      if (impostor !== undefined || closed) {
        connection.close();
        if (impostor !== undefined)
          log(`askaway: ${impostor}; the bridge hung up and relays nothing: Copilot's prompts stay in the terminal`);
        return false;
      }
      rpc = connection;
      turns.attach(connection);
      try {
        await attachOnce(connection);
        return true;
      } catch (error) {
        log(`askaway: Copilot's port did not answer as expected: ${errorMessage(error)}`);
        return false;
      }
    }
    return false;
  };

  const attached = attach().catch((error: unknown) => {
    log(`askaway: the bridge could not attach to Copilot: ${errorMessage(error)}`);
    return false;
  });

  return {
    attached,
    async close(reason = COPILOT_CLOSED_REASON) {
      if (closed) return;
      for (const entry of [...tracked.values()]) withdraw(entry, reason);
      // A finished turn is not a prompt Copilot forgets: it simply can take no reply any more.
      turns.close(reason === COPILOT_CLOSED_REASON ? undefined : reason);
      closed = true;
      waiting.clear();
      if (retryTimer) clearTimeout(retryTimer);
      rpc?.close();
      await options.runtime.close();
    },
    open: () => [...tracked.keys()],
  };
}
