// Carries one Codex home's pending prompts to the phone and the phone's answers back (R18.10–R18.14).
import { DECLINE_MESSAGE_MAX, errorMessage, type AgentRef, type InteractionResolution } from '../../../contracts';
import { type RuntimeClient } from '../../runtime-broker';
import { type DaemonRpc, type RpcId, type ServerRequest } from './daemon-rpc';
import { CODEX_PROMPT_METHODS, isPromptMethod, ThreadIdOnlySchema, ServerRequestResolvedSchema } from './protocol';
import { type ThreadRegistry } from './thread-registry';
import { toCodexReply, type CodexReply } from './to-answer';
import { toCodexPrompt, type CodexPrompt } from './to-interaction';
import { ANSWERED_IN_TERMINAL_REASON, DAEMON_GONE_REASON, resolvedElsewhereReason } from './terminal-answer';

/** Shown on the phone when the bridge itself stops while a prompt waits. */
export const BRIDGE_STOPPED_REASON = 'The Askaway bridge for Codex stopped: answer in the terminal';

interface Pending {
  key: string;
  /** The interaction's id: daemon process, thread and Codex's request id, never the id alone. */
  requestId: string;
  instance: string;
  threadId: string;
  rpcId: RpcId;
  prompt: CodexPrompt;
  client: RuntimeClient;
  controller: AbortController;
  seenAt: number;
  /** The answer for Codex, once the phone gave one; sent again if Codex re-sends the request (a reconnect). */
  reply?: CodexReply;
  sent: boolean;
}

export interface PromptRelayOptions {
  runtime: () => RuntimeClient;
  log: (line: string) => void;
  /** Called when the prompts waiting on the phone change (askaway status counts them). */
  onChange?: () => void;
  now?: () => number;
}

/** The connection prompts are answered on: a daemon process and the joined threads of that connection. */
interface Attached {
  instance: string;
  rpc: DaemonRpc;
  threads: ThreadRegistry;
}

/** What the interaction id says: `codex-<daemon>-<thread>-<request id>`. */
export function codexRequestId(instance: string, threadId: string, rpcId: RpcId): string {
  return `codex-${instance}-${threadId}-${String(rpcId)}`.slice(0, 200);
}

export class PromptRelay {
  private readonly prompts = new Map<string, Pending>();
  /** Keys being built (a file change's diff is fetched first), so a re-sent copy is not announced twice. */
  private readonly building = new Set<string>();
  /** Keys left to the terminal, logged once. */
  private readonly leftToTerminal = new Set<string>();
  private attached: Attached | null = null;
  private readonly now: () => number;

  constructor(private readonly options: PromptRelayOptions) {
    this.now = options.now ?? Date.now;
  }

  get pendingCount(): number {
    return this.prompts.size;
  }

  /** A connection to daemon process `instance`: prompts of any other daemon process are lost. */
  attach(instance: string, rpc: DaemonRpc, threads: ThreadRegistry): void {
    this.attached = { instance, rpc, threads };
    for (const pending of [...this.prompts.values()])
      if (pending.instance !== instance) this.settleElsewhere(pending, DAEMON_GONE_REASON);
  }

  /** The connection closed: the prompts stay, and a re-join to the same daemon re-sends them. */
  detach(): void {
    this.attached = null;
  }

  /** Daemon process `instance` is gone: its prompts are lost (Codex re-sends nothing to a new daemon's clients). */
  lose(instance: string): void {
    for (const pending of [...this.prompts.values()])
      if (pending.instance === instance) this.settleElsewhere(pending, DAEMON_GONE_REASON);
  }

  stop(): void {
    this.attached = null;
    for (const pending of [...this.prompts.values()]) this.settleElsewhere(pending, BRIDGE_STOPPED_REASON);
  }

  onRequest(request: ServerRequest): void {
    const attached = this.attached;
    if (!attached || !isPromptMethod(request.method)) return;
    const thread = ThreadIdOnlySchema.safeParse(request.params);
    if (!thread.success) return;
    const threadId = thread.data.threadId;
    const key = `${attached.instance}:${threadId}:${String(request.id)}`;
    const known = this.prompts.get(key);
    if (known) {
      // Re-sent after a re-join: answered meanwhile, so answer now.
      if (known.reply) this.deliver(known);
      return;
    }
    if (this.building.has(key) || this.leftToTerminal.has(key)) return;
    this.building.add(key);
    void this.announce(attached, key, threadId, request).finally(() => this.building.delete(key));
  }

  /** `serverRequest/resolved`: answered (by us, or first elsewhere, or by Codex's own timer). */
  onResolved(params: unknown): void {
    const parsed = ServerRequestResolvedSchema.safeParse(params);
    const attached = this.attached;
    if (!parsed.success || !attached) return;
    const key = `${attached.instance}:${parsed.data.threadId}:${String(parsed.data.requestId)}`;
    this.leftToTerminal.delete(key);
    const pending = this.prompts.get(key);
    if (!pending) return;
    if (pending.sent) {
      this.prompts.delete(key);
      this.options.onChange?.();
      return;
    }
    this.settleElsewhere(pending, resolvedElsewhereReason(pending.prompt, this.now() - pending.seenAt));
    this.options.log(`${describe(pending)} was answered in Codex first: withdrawn from the phone`);
  }

  private async announce(attached: Attached, key: string, threadId: string, request: ServerRequest): Promise<void> {
    const seenAt = this.now();
    const { itemId, turnId } = request.params as { itemId?: unknown; turnId?: unknown };
    const [changes, agentMessage] = await Promise.all([
      request.method === CODEX_PROMPT_METHODS.fileChange && typeof itemId === 'string'
        ? attached.threads.fileChanges(threadId, itemId)
        : undefined,
      attached.threads.agentMessage(threadId, typeof turnId === 'string' ? turnId : undefined),
    ]);
    const context = { ...attached.threads.context(threadId), ...(agentMessage ? { agentMessage } : {}) };
    const prompt = toCodexPrompt(request.method, request.params, context, {
      changes,
      askedAt: new Date(seenAt),
    });
    if ('unsupported' in prompt) return this.leaveToTerminal(key, prompt.unsupported);
    const version = attached.threads.version(threadId);
    const agent: AgentRef = { kind: 'codex', name: 'Codex', ...(version ? { version } : {}) };
    const requestId = codexRequestId(attached.instance, threadId, request.id);
    let client: RuntimeClient;
    try {
      client = this.options.runtime();
    } catch (error) {
      return this.leaveToTerminal(key, errorMessage(error));
    }
    const controller = new AbortController();
    const pending: Pending = {
      key,
      requestId,
      instance: attached.instance,
      threadId,
      rpcId: request.id,
      prompt,
      client,
      controller,
      seenAt,
      sent: false,
    };
    let waiting: Promise<InteractionResolution>;
    try {
      waiting = client.broker.requestInteraction(
        { ...prompt.interaction, requestId, sessionId: threadId, agent },
        { signal: controller.signal },
      );
    } catch (error) {
      // The broker checks the interaction against the contract before announcing it.
      return this.leaveToTerminal(key, errorMessage(error));
    }
    this.prompts.set(key, pending);
    this.options.onChange?.();
    this.options.log(`${describe(pending)} → the phone`);
    try {
      const resolution = await waiting;
      if (this.prompts.get(key) !== pending) return;
      pending.reply = toCodexReply(prompt.plan, resolution.response);
      this.deliver(pending);
    } catch (error) {
      if (controller.signal.aborted) return;
      this.prompts.delete(key);
      this.options.onChange?.();
      this.leaveToTerminal(key, errorMessage(error));
    }
  }

  /** Sends the phone's answer on the live connection to the daemon that asked; held until there is one. */
  private deliver(pending: Pending): void {
    const attached = this.attached;
    const reply = pending.reply;
    if (!reply || !attached || attached.instance !== pending.instance || attached.rpc.isClosed) return;
    const { rpc } = attached;
    const { threadId } = pending;
    const turnId = pending.prompt.turnId;
    pending.sent = true;
    if ('interrupt' in reply) {
      if (turnId) rpc.request('turn/interrupt', { threadId, turnId }).catch(this.failed('interrupt the turn'));
      this.options.log(`${describe(pending)}: cancelled on the phone → the turn is interrupted`);
      return;
    }
    const respond = () => {
      rpc.respond(pending.rpcId, reply.result);
      this.options.log(`${describe(pending)}: answered on the phone → Codex`);
    };
    if (!reply.steer || !turnId) return respond();
    // The reason joins the turn first, while the approval still holds it: steered after the decline, it
    // can miss the model call that reads the rejection, and the turn may have ended before it arrives.
    rpc
      .request('turn/steer', {
        threadId,
        expectedTurnId: turnId,
        input: [{ type: 'text', text: reply.steer, text_elements: [] }],
      })
      .catch(this.failed('pass the reason on'))
      .finally(respond);
  }

  /** The prompt was settled without the phone (terminal, Codex's timer, a lost daemon): the card leaves. */
  private settleElsewhere(pending: Pending, reason: string): void {
    this.prompts.delete(pending.key);
    this.options.onChange?.();
    // The reason first, so the phone shows it rather than the broker's generic one.
    // Answered in the terminal: the phone says so, in History too (R18.6); Codex does not say what was chosen.
    const terminalAnswer = reason === ANSWERED_IN_TERMINAL_REASON ? {} : undefined;
    pending.client.connection
      .withdraw(pending.requestId, reason.slice(0, DECLINE_MESSAGE_MAX), terminalAnswer)
      .catch(() => undefined);
    pending.controller.abort(new Error(reason));
  }

  private leaveToTerminal(key: string, why: string): void {
    if (this.leftToTerminal.has(key)) return;
    this.leftToTerminal.add(key);
    this.options.log(`left to Codex's terminal: ${why}`);
  }

  private failed(what: string) {
    return (error: unknown) => this.options.log(`could not ${what}: ${errorMessage(error)}`);
  }
}

function describe(pending: Pending): string {
  return `${pending.prompt.interaction.kind} ${String(pending.rpcId)} of thread ${pending.threadId.slice(0, 8)}`;
}
