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

export class FakeCopilot {
  readonly calls: RecordedCall[] = [];
  readonly pending = new Map<string, Pending>();
  foreground = 'session-1';
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
