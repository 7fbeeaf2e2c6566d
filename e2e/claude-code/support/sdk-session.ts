import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { asProcessEnv } from './claude-project';

/**
 * What the SDK host answers when Claude Code asks it (`can_use_tool`) without a hook having settled
 * the call. Tests look for it in the tool result: it makes a missed hook visible instead of a hang.
 */
export const SDK_HOST_DENIAL = 'E2E-SDK-HOST: Claude Code asked the SDK host; no hook settled this call';

export interface CanUseToolRequest {
  requestId: string;
  toolName: string;
  toolUseId: string | undefined;
  input: Record<string, unknown>;
  requiresUserInteraction: boolean;
  /** Whether Claude Code withdrew the prompt (control_cancel_request) before the host answered it. */
  cancelled: boolean;
  answered: boolean;
}

/** The SDK host's reply to `can_use_tool`: the Agent SDK's PermissionResult. */
export type PermissionReply =
  { behavior: 'allow'; updatedInput: Record<string, unknown> } | { behavior: 'deny'; message: string };

export interface SdkSessionOptions {
  binary: string;
  cwd: string;
  env: Record<string, string>;
  prompt: string;
  /** Extra flags, e.g. ['--permission-mode', 'plan']. */
  args?: string[];
  /**
   * How long the host keeps quiet on `can_use_tool` before it answers (with `reply`, else a deny with
   * SDK_HOST_DENIAL). 0 answers at once; 'never' leaves it to the test (`answer`). A prompt Claude Code
   * cancels meanwhile is never answered.
   */
  answerAfterMs?: number | 'never';
  reply?: (request: CanUseToolRequest) => PermissionReply;
}

export interface SdkResult {
  subtype: string;
  isError: boolean;
  result: string | undefined;
  raw: Record<string, unknown>;
}

export interface SdkSession {
  /** Every message Claude Code wrote on stdout. */
  messages: Record<string, unknown>[];
  canUseTool: CanUseToolRequest[];
  /** The first `result` message: the turn is over. */
  result: Promise<SdkResult>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  /** Claude Code's session id (from its first message), the sessionId of the root's interactions. */
  sessionId(): string | undefined;
  /** Answers a prompt now (unless Claude Code cancelled it or it was answered already). */
  answer(request: CanUseToolRequest, reply?: PermissionReply): void;
  /** Ends stdin (Claude Code then exits) and waits; SIGKILL if it does not within 10 s. */
  close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Claude Code in SDK print mode, with the test as its SDK host on stdin/stdout (stream-json). The only
 * mode of `claude -p` that offers AskUserQuestion; permission prompts reach the host as `can_use_tool`.
 */
export function startSdkSession(options: SdkSessionOptions): SdkSession {
  const args = [
    '-p',
    '--input-format',
    'stream-json',
    '--output-format',
    'stream-json',
    '--verbose',
    '--permission-prompt-tool',
    'stdio',
    ...(options.args ?? []),
  ];
  const child = spawn(options.binary, args, {
    cwd: options.cwd,
    env: asProcessEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const messages: Record<string, unknown>[] = [];
  const canUseTool: CanUseToolRequest[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));

  const send = (message: unknown) => {
    if (child.stdin.writable) child.stdin.write(`${JSON.stringify(message)}\n`);
  };
  const answer = (request: CanUseToolRequest, given?: PermissionReply) => {
    if (request.cancelled || request.answered) return;
    request.answered = true;
    const reply = given ?? options.reply?.(request) ?? { behavior: 'deny', message: SDK_HOST_DENIAL };
    send({
      type: 'control_response',
      response: { subtype: 'success', request_id: request.requestId, response: reply },
    });
  };

  let resolveResult: (result: SdkResult) => void = () => undefined;
  const result = new Promise<SdkResult>((resolve) => (resolveResult = resolve));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  createInterface({ input: child.stdout }).on('line', (line) => {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    messages.push(message);
    if (message.type === 'result') {
      resolveResult({
        subtype: String(message.subtype),
        isError: message.is_error === true,
        result: typeof message.result === 'string' ? message.result : undefined,
        raw: message,
      });
    } else if (message.type === 'control_request') {
      const body = (message.request ?? {}) as Record<string, unknown>;
      const requestId = String(message.request_id);
      if (body.subtype !== 'can_use_tool') {
        send({
          type: 'control_response',
          response: { subtype: 'error', request_id: requestId, error: 'not supported' },
        });
        return;
      }
      const request: CanUseToolRequest = {
        requestId,
        toolName: String(body.tool_name),
        toolUseId: typeof body.tool_use_id === 'string' ? body.tool_use_id : undefined,
        input: (body.input ?? {}) as Record<string, unknown>,
        requiresUserInteraction: body.requires_user_interaction === true,
        cancelled: false,
        answered: false,
      };
      canUseTool.push(request);
      const delay = options.answerAfterMs ?? 0;
      if (delay === 0) answer(request);
      else if (delay !== 'never') setTimeout(() => answer(request), delay).unref();
    } else if (message.type === 'control_cancel_request') {
      const request = canUseTool.find((candidate) => candidate.requestId === message.request_id);
      if (request) request.cancelled = true;
    }
  });

  send({ type: 'user', message: { role: 'user', content: options.prompt } });

  return {
    messages,
    canUseTool,
    result,
    exit,
    stderr: () => stderr,
    sessionId: () => {
      const found = messages.find((message) => typeof message.session_id === 'string');
      return found ? String(found.session_id) : undefined;
    },
    answer,
    async close() {
      child.stdin.end();
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const status = await exit;
      clearTimeout(killer);
      return status;
    },
  };
}
