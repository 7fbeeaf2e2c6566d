// Claude Code's MCP forms on the phone (R11.11): the Elicitation hook, which runs before Claude Code shows its form.
import { randomUUID } from 'node:crypto';
import { errorMessage, ID_MAX } from '../../../contracts';
import { HOST_CHECK_TIMEOUT_MS } from '../../runtime-client-provider';
import { type ClaudeCodeHookOptions, type HookDeadline } from './handle-hook';
import { CLAUDE_CODE_AGENT, contextOf, rootOrigin } from './hook-context';
import { DEFAULT_FORM_WAIT_MS } from './install';
import { ElicitationPayloadSchema, type ClaudeCodeHookOutput } from './hook-payload';
import { toElicitationOutput } from './to-answer';
import { toElicitationInput } from './to-interaction';

/** Shown on the phone when Claude Code stops the hook: the MCP server gave up (it cancels), or Claude Code quits. */
export const FORM_STOPPED_REASON =
  'Claude Code stopped waiting for this form (the MCP server gave up on it, or the session ended)';

/** The card's withdrawal reason when the phone's time is up and the form moves to the terminal. */
export function movedToTerminalReason(waitMs: number, machineName: string | undefined): string {
  const where = machineName ? ` on ${machineName}` : '';
  return `Moved to the terminal${where}: no answer here within ${Math.round(waitMs / 1000)} s, so Claude Code asks there`;
}

const realDeadline: HookDeadline = (ms, expire) => {
  const timer = setTimeout(expire, ms);
  return () => clearTimeout(timer);
};

const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

/**
 * One Elicitation hook call (R11.11): the MCP server's form (or page to open) on the phone for `formWaitMs`,
 * then withdrawn, saying it moved to the terminal, with no decision, so Claude Code shows its
 * own form. The phone's accept sends the values (checked against the server's schema), decline and cancel go as
 * they are. Never throws: anything the phone cannot take leaves the form to the terminal, with a line on stderr.
 */
export async function askForm(raw: unknown, options: ClaudeCodeHookOptions): Promise<ClaudeCodeHookOutput> {
  const log = options.log ?? (() => undefined);
  const parsed = ElicitationPayloadSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    log(
      `askaway hook: unreadable Elicitation payload (${where}${issue?.message ?? 'invalid'}); Claude Code asks instead`,
    );
    return {};
  }
  const payload = parsed.data;
  const input = toElicitationInput(payload);
  if ('unsupported' in input) {
    log(
      `askaway hook: the phone cannot show this form of ${payload.mcp_server_name}: ${input.unsupported}; Claude Code asks instead`,
    );
    return {};
  }
  if (options.signal?.aborted) return {};
  const waitMs = options.formWaitMs ?? DEFAULT_FORM_WAIT_MS;
  // From now, not the process's start: a second or so of Node's boot is inside FORM_HOOK_MARGIN_S.
  const deadlineAt = Date.now() + waitMs;
  const requestId = `claude-code-Elicitation-${randomUUID()}`;
  const controller = new AbortController();
  let runtime: ReturnType<ClaudeCodeHookOptions['runtime']['get']> | undefined;
  let stopped: string | undefined;
  const settle = (reason: string) => {
    stopped ??= reason;
    runtime?.connection.withdraw(requestId, reason).catch(() => undefined);
    controller.abort(new Error(reason));
  };
  const onOuterAbort = () => settle(FORM_STOPPED_REASON);
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const cancelDeadline = (options.deadline ?? realDeadline)(waitMs, () =>
    settle(movedToTerminalReason(waitMs, options.machineName)),
  );
  try {
    runtime = options.runtime.get('Claude Code');
    await runtime.connection.ready(options.hostCheckTimeoutMs ?? HOST_CHECK_TIMEOUT_MS);
    if (stopped !== undefined) throw new Error(stopped);
    const context = await contextOf(
      payload,
      options.localFiles ?? true,
      { movesToTerminalAt: new Date(deadlineAt).toISOString() },
      options.log,
    );
    const resolution = await runtime.broker.requestInteraction(
      {
        kind: 'form',
        input,
        requestId,
        sessionId: payload.session_id,
        toolName: clip(`mcp__${payload.mcp_server_name}`, ID_MAX),
        ...(payload.elicitation_id ? { toolUseId: payload.elicitation_id } : {}),
        agent: CLAUDE_CODE_AGENT,
        origin: rootOrigin(payload.session_id),
        ...(context ? { context } : {}),
      },
      { signal: controller.signal },
    );
    const output = toElicitationOutput(payload, resolution.response);
    if ('problem' in output) {
      log(
        `askaway hook: the phone's answer does not fit ${payload.mcp_server_name}'s form (${output.problem}); Claude Code asks instead`,
      );
      return {};
    }
    return output;
  } catch (error) {
    log(`askaway hook: ${stopped ?? errorMessage(error)} (Claude Code asks instead)`);
    return {};
  } finally {
    cancelDeadline();
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}
