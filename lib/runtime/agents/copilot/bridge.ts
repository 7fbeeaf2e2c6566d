// The Copilot bridge (R18.30–R18.35): a second client of the TUI's `--ui-server` port. It resumes the session
// the TUI shows (and each one it switches to) without touching the TUI, carries each permission prompt and
// `ask_user` form to the phone through the runtime connection every bridge uses (a joined machine's
// included), answers with the phone's answer, and takes a card away when the TUI answered first.
import { errorMessage, type InteractionResolution } from '../../../contracts';
import { InvalidInteractionRequestError } from '../../../protocol';
import { type RuntimeClient } from '../../runtime-broker';
import { type RuntimeClientProvider } from '../../runtime-client-provider';
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
  const waiting = new Map<string, Waiting>();
  const finished = new Set<string>();
  const followed = new Set<string>();
  const titles = new Map<string, string>();
  const subagents = new Map<string, { name: string; agentType?: string }>();
  let rpc: RpcConnection | undefined;
  let version: string | undefined;
  let client: RuntimeClient | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

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
    for (const entry of [...waiting.values()]) if (!tracked.has(entry.copilotId)) void ask(entry);
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
    waiting.set(what.copilotId, what);
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
        log(`askaway: ${what.copilotId} stays in the terminal for now: ${errorMessage(error)}`);
        scheduleReask();
      }
    } finally {
      if (tracked.get(what.copilotId) === entry) tracked.delete(what.copilotId);
      if (!gaveUp) finish(what.copilotId);
    }
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
    const agentId = event.agentId || undefined;
    switch (event.type) {
      case 'permission.requested': {
        const data = PermissionRequestedSchema.safeParse(event.data);
        if (!data.success) return log(`askaway: unreadable permission.requested from Copilot`);
        if (data.data.resolvedByHook) return;
        const prompt = data.data.promptRequest;
        if (!prompt) return log(`askaway: ${data.data.requestId} has no prompt to show; it stays in the terminal`);
        void ask({
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
        void ask({
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
          const name = data.data.agentDisplayName || data.data.agentName || 'subagent';
          bounded(subagents, agentId, {
            name,
            ...(data.data.agentType || data.data.agentName
              ? { agentType: data.data.agentType || data.data.agentName }
              : {}),
          });
        }
        return;
      }
      case 'session.title_changed': {
        const data = TitleChangedSchema.safeParse(event.data);
        if (data.success && data.data.title.trim() !== '') bounded(titles, sessionId, data.data.title.trim());
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
          void ask({ kind: 'permission', sessionId, copilotId: item.requestId, prompt: item.request });
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
        if (parsed.success && parsed.data.type === 'session.foreground') void follow(connection, parsed.data.sessionId);
      }
    });
    connection.onClose(() => {
      if (closed) return;
      for (const entry of [...tracked.values()]) withdraw(entry, COPILOT_CLOSED_REASON);
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
      rpc = connection;
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

  const attached = attach();

  return {
    attached,
    async close(reason = COPILOT_CLOSED_REASON) {
      if (closed) return;
      for (const entry of [...tracked.values()]) withdraw(entry, reason);
      closed = true;
      waiting.clear();
      if (retryTimer) clearTimeout(retryTimer);
      rpc?.close();
      await options.runtime.close();
    },
    open: () => [...tracked.keys()],
  };
}
