import { io, type Socket } from 'socket.io-client';
import {
  AnnounceAckSchema,
  PROTOCOL_VERSION,
  RUNTIME_NAMESPACE,
  type AgentRef,
  type AnnounceAck,
  type ApprovalInput,
  type AskUserQuestionInputLike,
  type ClaudeCodeAskUserQuestionInput,
  type FormInput,
  type InteractionOrigin,
  type InteractionContext,
  type InteractionResolution,
  type ResolvedNotice,
  type RuntimeClientToServerEvents,
  type RuntimeServerToClientEvents,
  type TerminalAnswer,
} from '../../lib/contracts';

type RuntimeSocket = Socket<RuntimeServerToClientEvents, RuntimeClientToServerEvents>;

let counter = 0;
const nextId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;

export interface AnnounceOptions {
  sessionId?: string;
  origin?: InteractionOrigin;
  context?: InteractionContext;
  requestId?: string;
  /** Which agent asked (R18.1); agents' own kinds default to Codex, the rest say nothing. */
  agent?: AgentRef;
  /** Benchmarks announce thousands at once; the 1 s re-announce loop would only add load. */
  reannounce?: boolean;
}

type Payload =
  | { kind: 'question'; toolName: 'AskUserQuestion'; input: AskUserQuestionInputLike }
  | { kind: 'question'; inputRules: 'agent'; toolName: string; input: ClaudeCodeAskUserQuestionInput; agent: AgentRef }
  | { kind: 'plan-approval'; toolName: 'ExitPlanMode'; input: { plan: string } }
  | { kind: 'permission'; toolName: string; input: Record<string, unknown> }
  | { kind: 'approval'; toolName: string; input: ApprovalInput; agent: AgentRef }
  | { kind: 'form'; toolName: string; input: FormInput; agent: AgentRef };

/** What the e2e agents' own prompts say they are (R18.1). */
const CODEX: AgentRef = { kind: 'codex', name: 'Codex', version: '0.171.0' };

/**
 * A test-only runtime on '/runtime': announces interactions (re-announcing every
 * second while pending, R8.1), records every resolution it receives and acks it.
 */
export class ScriptedRuntime {
  readonly resolutions: ResolvedNotice[] = [];
  private readonly socket: RuntimeSocket;
  private readonly pending = new Map<
    string,
    { request: Record<string, unknown>; timer: ReturnType<typeof setInterval> }
  >();

  /**
   * `token`: the agent token, or a joined machine's credential (R17.2). `onResolved` hears each
   * resolution as it is recorded (a runtime in its own process prints them).
   */
  constructor(
    url: string,
    token: string,
    private readonly onResolved: (notice: ResolvedNotice) => void = () => undefined,
  ) {
    this.socket = io(`${url}${RUNTIME_NAMESPACE}`, {
      auth: { token, protocolVersion: PROTOCOL_VERSION, runtimeId: nextId('runtime'), label: 'e2e scripted runtime' },
      transports: ['websocket'],
      reconnectionDelay: 200,
      reconnectionDelayMax: 500,
    });
    this.socket.on('resolved', (notice) => {
      this.resolutions.push(notice);
      this.onResolved(notice);
      this.stop(notice.requestId);
      this.socket.emit('resolution:ack', { requestId: notice.requestId }, () => undefined);
    });
  }

  /** Whether the host still holds this runtime's connection (a revoked machine's is dropped). */
  isConnected(): boolean {
    return this.socket.connected;
  }

  connected(): Promise<void> {
    if (this.socket.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('connect_error', reject);
    });
  }

  async ask(input: AskUserQuestionInputLike, options: AnnounceOptions = {}): Promise<string> {
    return this.announce({ kind: 'question', toolName: 'AskUserQuestion', input }, options);
  }

  async plan(plan: string, options: AnnounceOptions = {}): Promise<string> {
    return this.announce({ kind: 'plan-approval', toolName: 'ExitPlanMode', input: { plan } }, options);
  }

  async permission(toolName: string, input: Record<string, unknown>, options: AnnounceOptions = {}): Promise<string> {
    return this.announce({ kind: 'permission', toolName, input }, options);
  }

  /** An agent's own question (R18.5: secret, options only), as an agent's bridge announces it. */
  async agentQuestion(input: ClaudeCodeAskUserQuestionInput, options: AnnounceOptions = {}): Promise<string> {
    return this.announce(
      { kind: 'question', inputRules: 'agent', toolName: 'request_user_input', input, agent: CODEX },
      options,
    );
  }

  /** An agent's approval with its own choices (R18.3). */
  async approval(input: ApprovalInput, options: AnnounceOptions = {}): Promise<string> {
    return this.announce({ kind: 'approval', toolName: 'exec_command', input, agent: CODEX }, options);
  }

  /** An MCP server's form (R18.4). */
  async form(input: FormInput, options: AnnounceOptions = {}): Promise<string> {
    return this.announce({ kind: 'form', toolName: 'elicitation', input, agent: CODEX }, options);
  }

  private async announce(payload: Payload, options: AnnounceOptions): Promise<string> {
    await this.connected();
    const requestId = options.requestId ?? nextId('req');
    const request = {
      requestId,
      protocolRequestId: nextId('proto'),
      sessionId: options.sessionId ?? 'session-e2e',
      ...(options.origin ? { origin: options.origin } : {}),
      ...(options.context ? { context: options.context } : {}),
      createdAt: new Date().toISOString(),
      ...payload,
      ...(options.agent ? { agent: options.agent } : {}),
    };
    const ack = await this.emitAnnounce(request);
    if (!ack.ok) throw new Error(`announce refused: ${ack.error.code} ${ack.error.message}`);
    if (options.reannounce === false) return requestId;
    // R8.1: keep re-announcing under the same business id, so a restarted host re-registers it.
    const timer = setInterval(() => {
      if (this.socket.connected)
        void this.emitAnnounce({ ...request, protocolRequestId: nextId('proto') }).catch(() => undefined);
    }, 1_000);
    this.pending.set(requestId, { request, timer });
    return requestId;
  }

  private emitAnnounce(request: Record<string, unknown>): Promise<AnnounceAck> {
    return new Promise((resolve, reject) => {
      this.socket.timeout(5_000).emit('announce', request, (error: Error | null, raw: unknown) => {
        if (error) return reject(error);
        const parsed = AnnounceAckSchema.safeParse(raw);
        if (!parsed.success) return reject(new Error(`bad announce ack ${JSON.stringify(raw)}`));
        // A re-announce after a host restart may be answered with the resolution itself.
        if (parsed.data.ok && parsed.data.status === 'resolved') {
          const requestId = String(request.requestId);
          if (this.resolutionsFor(requestId).length === 0) {
            const notice = {
              requestId,
              protocolRequestId: String(request.protocolRequestId),
              resolution: parsed.data.resolution,
            };
            this.resolutions.push(notice);
            this.onResolved(notice);
            this.socket.emit('resolution:ack', { requestId }, () => undefined);
          }
          this.stop(requestId);
        }
        resolve(parsed.data);
      });
    });
  }

  /** `terminalAnswer`: the agent's own terminal answered first, with what it chose (R18.6). */
  withdraw(
    requestId: string,
    reason?: string,
    terminalAnswer?: TerminalAnswer,
    options: { afterAnswer?: boolean } = {},
  ): Promise<void> {
    this.stop(requestId);
    const command = {
      requestId,
      ...(reason ? { reason } : {}),
      ...(terminalAnswer ? { terminalAnswer } : {}),
      ...(options.afterAnswer ? { afterAnswer: true } : {}),
    };
    return new Promise((resolve) => this.socket.emit('withdraw', command, () => resolve()));
  }

  private stop(requestId: string): void {
    const entry = this.pending.get(requestId);
    if (entry) clearInterval(entry.timer);
    this.pending.delete(requestId);
  }

  /** Resolutions received for one request (more than one would break "applied exactly once"). */
  resolutionsFor(requestId: string): InteractionResolution[] {
    return this.resolutions.filter((notice) => notice.requestId === requestId).map((notice) => notice.resolution);
  }

  close(): void {
    for (const requestId of [...this.pending.keys()]) this.stop(requestId);
    this.socket.disconnect();
  }
}
