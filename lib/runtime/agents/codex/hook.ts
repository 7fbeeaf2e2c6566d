// The fallback for Codex sessions no daemon client can see (R18.15): a PermissionRequest command hook.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import {
  APPROVAL_CHANGES_MAX,
  APPROVAL_DIFF_MAX,
  errorMessage,
  type ApprovalInput,
  type FileChange,
} from '../../../contracts';
import { type HookDeadline } from '../claude-code/handle-hook';
import { HOST_CHECK_TIMEOUT_MS, type RuntimeClientProvider } from '../../runtime-client-provider';
import { readBridgeStatuses } from './bridge-status';
import { defaultCodexHome, readDaemonProcess } from './codex-home';

/** How long the hook waits for the phone before Codex's own prompt takes over (`--timeout`). */
export const DEFAULT_CODEX_HOOK_TIMEOUT_MS = 30_000;
export const CODEX_HOOK_NO_ANSWER_REASON = "No answer in time: the prompt went back to Codex's terminal";
export const CODEX_HOOK_STOPPED_REASON = 'Codex stopped the hook (answered or interrupted in its terminal)';

/** What Codex 0.171 sends a PermissionRequest hook on stdin (lenient: Codex adds fields over time). */
export const CodexHookPayloadSchema = z
  .object({
    session_id: z.string().min(1).max(200),
    turn_id: z.string().max(200).optional(),
    cwd: z.string().max(4_096).optional(),
    hook_event_name: z.string().max(100),
    tool_name: z.string().min(1).max(200),
    tool_input: z.record(z.string(), z.unknown()).default({}),
  })
  .passthrough();
export type CodexHookPayload = z.infer<typeof CodexHookPayloadSchema>;

export interface CodexPermissionOutput {
  hookSpecificOutput: {
    hookEventName: 'PermissionRequest';
    decision: { behavior: 'allow' } | { behavior: 'deny'; message: string };
  };
}
/** No output: no decision, so Codex's own approval prompt follows. */
export type CodexHookOutput = CodexPermissionOutput | null;

export interface CodexHookOptions {
  runtime: RuntimeClientProvider;
  env: Record<string, string | undefined>;
  /** The hook's parent process: the daemon's pid when a daemon session asked. */
  parentPid: number;
  dataDir: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  deadline?: HookDeadline;
  hostCheckTimeoutMs?: number;
  log?: (line: string) => void;
}

const realDeadline: HookDeadline = (ms, expire) => {
  const timer = setTimeout(expire, ms);
  return () => clearTimeout(timer);
};

const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

const PATCH_FILE = /^\*\*\* (Add|Delete|Update) File: (.+)$/;

/** The files of an `apply_patch` patch, each with its own part of the patch as its diff. */
export function patchChanges(patch: string): FileChange[] {
  const changes: FileChange[] = [];
  let budget = 100_000;
  let current: { change: FileChange; lines: string[] } | undefined;
  const flush = () => {
    if (!current) return;
    const diff = current.lines.join('\n');
    const room = Math.min(APPROVAL_DIFF_MAX, Math.max(0, budget));
    budget -= Math.min(diff.length, room);
    changes.push({
      ...current.change,
      ...(diff && room > 0 ? { diff: diff.slice(0, room) } : {}),
      ...(diff.length > room ? { truncated: true } : {}),
    });
  };
  for (const line of patch.split('\n')) {
    const file = PATCH_FILE.exec(line);
    if (file) {
      flush();
      const kind = file[1] === 'Add' ? 'add' : file[1] === 'Delete' ? 'delete' : 'update';
      current = { change: { path: clip(file[2] ?? '', 4_096), kind }, lines: [] };
    } else if (line.startsWith('*** Move to: ') && current) {
      current.change = { ...current.change, kind: 'move', movePath: clip(line.slice(13), 4_096) };
    } else if (current && !line.startsWith('*** End Patch')) current.lines.push(line);
  }
  flush();
  return changes.slice(0, APPROVAL_CHANGES_MAX);
}

/**
 * The approval card for what Codex asks: a shell command (its `description` is the model's reason), a
 * patch (its files from the patch text), or another tool's input.
 */
export function hookApprovalInput(payload: CodexHookPayload): ApprovalInput {
  const input = payload.tool_input;
  const command = typeof input.command === 'string' ? input.command : undefined;
  const reason = typeof input.description === 'string' ? { reason: clip(input.description, 4_000) } : {};
  const cwd = payload.cwd ? { cwd: clip(payload.cwd, 4_096) } : {};
  const choices: ApprovalInput['choices'] = [
    { id: 'allow', label: 'Yes, allow', effect: 'allow' },
    { id: 'deny', label: 'No', effect: 'deny', detail: 'The model reads your reason' },
  ];
  if (payload.tool_name === 'apply_patch' && command !== undefined)
    return { subject: 'file-change', ...cwd, ...reason, changes: patchChanges(command), choices };
  if (payload.tool_name === 'Bash' && command !== undefined)
    return { subject: 'command', command: clip(command, 20_000), ...cwd, ...reason, choices };
  return {
    subject: 'tool',
    ...cwd,
    ...reason,
    tool: { name: clip(payload.tool_name, 200), input: clip(JSON.stringify(input), 20_000) },
    choices,
  };
}

/**
 * Whether a bridge already carries this call's prompt: the hook runs inside a daemon (its parent is the
 * daemon `daemon.pid` names) and a live bridge is attached to that home. The prompt then reaches the phone
 * from the bridge, once; the hook steps aside so the terminal is not kept waiting twice.
 */
export async function bridgeCovers(options: Pick<CodexHookOptions, 'env' | 'parentPid' | 'dataDir'>): Promise<boolean> {
  const home = defaultCodexHome(options.env);
  if ((await readDaemonProcess(home))?.pid !== options.parentPid) return false;
  return readBridgeStatuses(options.dataDir).some((bridge) => bridge.codexHome === home && bridge.state === 'attached');
}

/**
 * One PermissionRequest: the approval on the phone for at most `timeoutMs`, then no decision (Codex's
 * terminal prompt follows). Never throws: a hook that fails must not block Codex.
 */
export async function handleCodexHook(raw: unknown, options: CodexHookOptions): Promise<CodexHookOutput> {
  const log = options.log ?? (() => undefined);
  const parsed = CodexHookPayloadSchema.safeParse(raw);
  if (!parsed.success) {
    log(`askaway hook codex: not a Codex hook payload (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    return null;
  }
  const payload = parsed.data;
  if (payload.hook_event_name !== 'PermissionRequest') return null;
  if (await bridgeCovers(options)) return null;
  const timeoutMs = options.timeoutMs ?? DEFAULT_CODEX_HOOK_TIMEOUT_MS;
  const requestId = `codex-hook-${payload.session_id}-${randomUUID()}`.slice(0, 200);
  const controller = new AbortController();
  let runtime: ReturnType<RuntimeClientProvider['get']> | undefined;
  let stopped: string | undefined;
  const settle = (reason: string) => {
    stopped ??= reason;
    runtime?.connection.withdraw(requestId, reason).catch(() => undefined);
    controller.abort(new Error(reason));
  };
  const onOuterAbort = () => settle(CODEX_HOOK_STOPPED_REASON);
  if (options.signal?.aborted) return null;
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const cancelDeadline = (options.deadline ?? realDeadline)(timeoutMs, () => settle(CODEX_HOOK_NO_ANSWER_REASON));
  try {
    runtime = options.runtime.get('Codex (hook)');
    await runtime.connection.ready(options.hostCheckTimeoutMs ?? HOST_CHECK_TIMEOUT_MS);
    const cwd = payload.cwd;
    const resolution = await runtime.broker.requestInteraction(
      {
        kind: 'approval',
        input: hookApprovalInput(payload),
        requestId,
        sessionId: payload.session_id,
        toolName: payload.tool_name,
        agent: { kind: 'codex', name: 'Codex' },
        ...(cwd ? { context: { cwd: clip(cwd, 1_000), projectName: clip(path.basename(cwd), 200) } } : {}),
      },
      { signal: controller.signal },
    );
    const { response } = resolution;
    if (response.action === 'accept')
      return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } };
    // Cancel: no opinion, the terminal decides.
    if (response.action === 'cancel') return null;
    const message = response.message?.trim() ? response.message : 'Denied from the phone (Askaway)';
    return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message } } };
  } catch (error) {
    log(`askaway hook codex: ${stopped ?? errorMessage(error)} (Codex's terminal asks instead)`);
    return null;
  } finally {
    cancelDeadline();
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}
