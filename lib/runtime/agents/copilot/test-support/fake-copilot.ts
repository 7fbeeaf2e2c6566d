// A Copilot `--ui-server` port for the bridge's tests: the JSON-RPC calls the bridge makes, answered as
// Copilot 1.0.102 answers them, and the events it sends every client (docs/agents/copilot.md).
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { type AddressInfo } from 'node:net';
import { frame, frameReader } from '../json-rpc';

interface Pending {
  sessionId: string;
  kind: 'permission' | 'form';
  prompt?: Record<string, unknown>;
}

export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
}

/** A prompt Copilot holds behind the running turn ("Queued (1)"). */
interface Queued {
  sessionId: string;
  messageId: string;
  prompt: string;
}

export class FakeCopilot {
  readonly calls: RecordedCall[] = [];
  readonly pending = new Map<string, Pending>();
  foreground = 'session-1';
  /** Sessions with a turn running (`session.metadata.isProcessing`). */
  readonly processing = new Set<string>();
  readonly queue: Queued[] = [];
  /** Prompts `session.send` started, as the model would read them. */
  readonly sent: { sessionId: string; prompt: string }[] = [];
  /** Runs as `session.send` arrives, before Copilot takes it: what the person does in that instant. */
  beforeSend: ((sessionId: string) => void) | undefined;
  private readonly sockets = new Set<net.Socket>();
  private readonly resumed = new Set<string>();
  private server: net.Server | undefined;
  port = 0;

  async listen(): Promise<number> {
    this.server = net.createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      // A client that hangs up with frames unread resets the connection: not the fake's failure.
      socket.on('error', () => undefined);
      socket.on(
        'data',
        frameReader(
          (message) => this.handle(socket, message as { id: number; method: string; params: Record<string, unknown> }),
          () => socket.destroy(),
        ),
      );
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  /** A port nothing listens on yet: the bridge must wait for it. */
  static async unusedPort(): Promise<number> {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  private handle(socket: net.Socket, message: { id: number; method: string; params: Record<string, unknown> }) {
    this.calls.push({ method: message.method, params: message.params });
    const result = (value: unknown) => socket.write(frame({ jsonrpc: '2.0', id: message.id, result: value }));
    const { params } = message;
    switch (message.method) {
      case 'connect':
        return result({ ok: true, protocolVersion: 3, version: '1.0.102' });
      case 'session.getForeground':
        return result({ sessionId: this.foreground });
      case 'session.resume':
        this.resumed.add(String(params.sessionId));
        return result({ sessionId: params.sessionId });
      case 'session.permissions.pendingRequests':
        return result({
          items: [...this.pending.entries()]
            .filter(([, entry]) => entry.kind === 'permission' && entry.sessionId === params.sessionId)
            .map(([requestId, entry]) => ({ requestId, request: entry.prompt })),
        });
      case 'session.metadata.isProcessing':
        return result({ processing: this.processing.has(String(params.sessionId)) });
      case 'session.send': {
        const sessionId = String(params.sessionId);
        const prompt = String(params.prompt);
        this.beforeSend?.(sessionId);
        const messageId = randomUUID();
        if (this.processing.has(sessionId)) this.queue.push({ sessionId, messageId, prompt });
        else {
          this.sent.push({ sessionId, prompt });
          this.prompt(sessionId, { messageId });
        }
        return result({ messageId });
      }
      case 'session.queue.pendingItems':
        return result({
          items: this.queue
            .filter((item) => item.sessionId === params.sessionId)
            .map((item, index) => ({
              id: String(index),
              messageId: item.messageId,
              kind: 'message',
              displayText: item.prompt,
            })),
          steeringMessages: [],
        });
      case 'session.queue.withdrawMessage': {
        const at = this.queue.findIndex(
          (item) => item.messageId === params.messageId && item.prompt === params.expectedPrompt,
        );
        if (at >= 0) this.queue.splice(at, 1);
        return result({ removed: at >= 0, interrupted: false });
      }
      case 'session.permissions.handlePendingPermissionRequest':
      case 'session.ui.handlePendingElicitation': {
        const requestId = String(params.requestId);
        const entry = this.pending.get(requestId);
        if (!entry) return result({ success: false });
        this.pending.delete(requestId);
        result({ success: true });
        const answer = params.result as Record<string, unknown>;
        if (entry.kind === 'permission')
          this.event(entry.sessionId, 'permission.completed', { requestId, result: kindOf(answer) });
        else this.event(entry.sessionId, 'elicitation.completed', { requestId, ...answer }, true);
        return;
      }
      default:
        socket.write(
          frame({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32601, message: `Unhandled method ${message.method}` },
          }),
        );
    }
  }

  /** Whether a client resumed the session (events go only to them). */
  follows(sessionId: string): boolean {
    return this.resumed.has(sessionId);
  }

  event(sessionId: string, type: string, data: unknown, ephemeral = false, agentId?: string) {
    const event = {
      type,
      data,
      id: randomUUID(),
      timestamp: new Date().toISOString(),
      parentId: null,
      ...(ephemeral ? { ephemeral } : {}),
      ...(agentId ? { agentId } : {}),
    };
    this.notify('session.event', { sessionId, event });
  }

  notify(method: string, params: unknown) {
    for (const socket of this.sockets) socket.write(frame({ jsonrpc: '2.0', method, params }));
  }

  /** The TUI shows "Do you want to run this command?" and every client hears `permission.requested`. */
  askPermission(
    prompt: Record<string, unknown>,
    options: { sessionId?: string; agentId?: string; silent?: boolean } = {},
  ): string {
    const requestId = randomUUID();
    const sessionId = options.sessionId ?? this.foreground;
    this.pending.set(requestId, { sessionId, kind: 'permission', prompt });
    if (!options.silent)
      this.event(
        sessionId,
        'permission.requested',
        {
          requestId,
          permissionRequest: { kind: 'shell', toolCallId: prompt.toolCallId },
          promptRequest: prompt,
          permissionMode: 'manual',
        },
        false,
        options.agentId,
      );
    return requestId;
  }

  /** `ask_user`'s form (Copilot drops `required`). */
  askForm(message: string, requestedSchema: unknown, toolCallId = 'call_form'): string {
    const requestId = randomUUID();
    this.pending.set(requestId, { sessionId: this.foreground, kind: 'form' });
    this.event(this.foreground, 'elicitation.requested', { requestId, message, requestedSchema, toolCallId }, true);
    return requestId;
  }

  /** The person answered in the TUI first. */
  answerInTerminal(requestId: string, answer: Record<string, unknown>) {
    const entry = this.pending.get(requestId);
    if (!entry) throw new Error(`nothing pending as ${requestId}`);
    this.pending.delete(requestId);
    if (entry.kind === 'permission')
      this.event(entry.sessionId, 'permission.completed', {
        requestId,
        result: answer,
        decisionSource: 'human_response',
      });
    else this.event(entry.sessionId, 'elicitation.completed', { requestId, ...answer }, true);
  }

  /**
   * A prompt starts a turn: typed in the TUI, or sent by a client (`messageId`). `agentId`: a subagent's own
   * prompt, from its parent. Returns the interaction's id.
   */
  prompt(sessionId = this.foreground, options: { messageId?: string; agentId?: string } = {}): string {
    const interactionId = randomUUID();
    if (!options.agentId) this.processing.add(sessionId);
    const messageId = options.messageId ?? randomUUID();
    this.event(sessionId, 'user.message', { content: 'typed', messageId, interactionId }, false, options.agentId);
    this.event(sessionId, 'assistant.turn_start', { turnId: '0', interactionId }, false, options.agentId);
    return interactionId;
  }

  /** The model's `assistant.message` (blank `content` when it only calls tools). */
  say(content: string, options: { sessionId?: string; agentId?: string } = {}): void {
    this.event(
      options.sessionId ?? this.foreground,
      'assistant.message',
      { messageId: randomUUID(), content, toolRequests: [] },
      false,
      options.agentId,
    );
  }

  /**
   * The turn ends as 1.0.102 ends it: `session.error` first when it failed, then the idle events; a prompt queued
   * behind it runs instead, with no idle in between.
   */
  endTurn(options: { sessionId?: string; aborted?: boolean; error?: string } = {}): void {
    const sessionId = options.sessionId ?? this.foreground;
    this.event(sessionId, 'assistant.turn_end', { turnId: '0' });
    if (options.aborted) this.event(sessionId, 'abort', { reason: 'user_abort' });
    if (options.error) this.event(sessionId, 'session.error', { errorType: 'query', message: options.error });
    const next = this.queue.findIndex((item) => item.sessionId === sessionId);
    const [queued] = next >= 0 ? this.queue.splice(next, 1) : [];
    if (queued) {
      this.sent.push({ sessionId, prompt: queued.prompt });
      this.prompt(sessionId, { messageId: queued.messageId });
      return;
    }
    this.processing.delete(sessionId);
    const idle = options.aborted ? { aborted: true } : {};
    this.event(sessionId, 'assistant.idle', idle, true);
    this.event(sessionId, 'session.idle', { ...idle, mode: 'interactive' }, true);
  }

  /** `/new` in the TUI: another session in the foreground. */
  switchTo(sessionId: string) {
    this.notify('session.lifecycle', { type: 'session.background', sessionId: this.foreground });
    this.foreground = sessionId;
    this.notify('session.lifecycle', { type: 'session.foreground', sessionId });
  }

  async close() {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
  }
}

function kindOf(answer: Record<string, unknown>): Record<string, unknown> {
  switch (answer.kind) {
    case 'approve-once':
      return { kind: 'approved' };
    case 'approve-for-session':
      return { kind: 'approved-for-session', approval: answer.approval };
    case 'reject':
      return { kind: 'denied-interactively-by-user', ...(answer.feedback ? { feedback: answer.feedback } : {}) };
    default:
      return { kind: String(answer.kind) };
  }
}
