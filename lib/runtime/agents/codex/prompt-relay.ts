// Carries one Codex home's pending prompts to the phone and the phone's answers back (R18.10–R18.14).
import {
  BRIDGE_PROMPTS_MAX,
  BRIDGE_SETTLED_IDS_KEPT,
  DECLINE_MESSAGE_MAX,
  errorMessage,
  type AgentRef,
  type InteractionResolution,
} from '../../../contracts';
import { BoundedSet } from '../../bounded-set';
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
  /** Prompts carried to the phone at once (default BRIDGE_PROMPTS_MAX); the rest stay in the terminal (R12.17). */
  maxPrompts?: number;
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
  /** Keys left to the terminal, logged once; bounded, as a daemon may send any number (R12.17). */
  private readonly leftToTerminal = new BoundedSet(BRIDGE_SETTLED_IDS_KEPT);
  private attached: Attached | null = null;
  private readonly now: () => number;
  private readonly maxPrompts: number;
  /** Prompts over the bound since it was last said; the log says so once per flood, not once per prompt. */
  private overflowSaid = false;
  /** Why the last prompt was left to the terminal. */
  private lastLeftFor = '';

  constructor(private readonly options: PromptRelayOptions) {
    this.now = options.now ?? Date.now;
    this.maxPrompts = options.maxPrompts ?? BRIDGE_PROMPTS_MAX;
  }

  get pendingCount(): number {
    return this.prompts.size;
  }

  /** Prompts on the phone or on their way there: what the bound counts. */
  get heldCount(): number {
    return this.prompts.size + this.building.size;
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
    if (this.heldCount >= this.maxPrompts) return this.overflow();
    if (this.heldCount < this.maxPrompts / 2) this.overflowSaid = false;
    this.building.add(key);
    // Whatever goes wrong on the way stays in Codex's terminal with a log line, never an unseen rejection (R12.18).
    this.announce(attached, key, threadId, request)
      .catch((error: unknown) => this.leaveToTerminal(key, `could not carry it: ${errorMessage(error)}`))
      .finally(() => this.building.delete(key));
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
    this.lastLeftFor = '';
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
      .then(respond)
      .catch(this.failed('answer Codex'));
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

  /**
   * One prompt too many (R12.17): it is not answered here, so Codex's terminal keeps it. Not remembered either:
   * a re-join re-sends it, and by then there may be room.
   */
  private overflow(): void {
    if (this.overflowSaid) return;
    this.overflowSaid = true;
    this.options.log(
      `${this.maxPrompts} prompts already wait on the phone: further ones stay in Codex's terminal (said once)`,
    );
  }

  private leaveToTerminal(key: string, why: string): void {
    if (this.leftToTerminal.has(key)) return;
    this.leftToTerminal.add(key);
    // Once for a run of prompts left for the same reason (the host refusing a flood), not once per prompt.
    if (why === this.lastLeftFor) return;
    this.lastLeftFor = why;
    this.options.log(`left to Codex's terminal: ${why}`);
  }

  private failed(what: string) {
    return (error: unknown) => this.options.log(`could not ${what}: ${errorMessage(error)}`);
  }
}

function describe(pending: Pending): string {
  return `${pending.prompt.interaction.kind} ${String(pending.rpcId)} of thread ${pending.threadId.slice(0, 8)}`;
}
