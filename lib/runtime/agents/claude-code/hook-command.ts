import { hostname } from 'node:os';
import { errorMessage, machineNameFrom } from '../../../contracts';
import { parseDuration } from '../../duration';
import { resolveHostTarget } from '../../host-address';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { watchAgentProcess } from './agent-process';
import { askAway } from './away-check';
import { type FollowOptions } from './follow-transcript';
import { handleClaudeCodeHook, type HookDeadline } from './handle-hook';
import { CLAUDE_CODE_DIALOG_HOOK_TIMEOUT_S } from './install';

const MAX_STDIN_BYTES = 5 * 1024 * 1024;

export interface HookFlags {
  /** `--timeout`; without it each path has its own (handle-hook.ts: a day beside a dialog, 540 s on PreToolUse). */
  timeoutMs?: number;
  /** `--form-wait`: how long an MCP form waits for the phone (R11.11; default DEFAULT_FORM_WAIT_MS). */
  formWaitMs?: number;
  allTools: boolean;
  /** `--finished-card`: the background Stop hook, which shows a finished turn without waiting (R19.50). */
  finishedCard: boolean;
  /** `--no-reply`: finished turns never wait for a reply (R19.53). */
  noReply: boolean;
  /** `--reply-wait`: how long the waiting Stop hook holds the turn for the phone (R19.50). */
  replyWaitMs?: number;
}

/** `askaway hook claude-code` flags, or why they are wrong. */
export function parseHookFlags(argv: readonly string[]): HookFlags | { error: string } {
  const flags: HookFlags = { allTools: false, finishedCard: false, noReply: false };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--all-tools') flags.allTools = true;
    else if (arg === '--finished-card') flags.finishedCard = true;
    else if (arg === '--no-reply') flags.noReply = true;
    else if (arg === '--reply-wait') {
      const value = parseDuration(argv[index + 1] ?? '');
      if (value === null) return { error: '--reply-wait needs a duration such as 9m or 1h' };
      flags.replyWaitMs = value;
      index += 1;
    } else if (arg === '--timeout') {
      const value = parseDuration(argv[index + 1] ?? '');
      if (value === null) return { error: '--timeout needs a duration such as 540s or 9m' };
      flags.timeoutMs = value;
      index += 1;
    } else if (arg === '--form-wait') {
      const value = parseDuration(argv[index + 1] ?? '');
      if (value === null) return { error: '--form-wait needs a duration such as 30s or 2m' };
      flags.formWaitMs = value;
      index += 1;
    } else return { error: `unexpected argument "${arg}"` };
  }
  return flags;
}

/** What the command hook reads and writes: the process's in the CLI, a test's own in unit tests. */
export interface HookCommandIo {
  env: Record<string, string | undefined>;
  stdin: AsyncIterable<Buffer | string>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Aborted when Claude Code stops the hook (a signal): the question is withdrawn and nothing is printed. */
  signal?: AbortSignal;
  /** How the fallback deadline is kept; tests pass their own clock. */
  deadline?: HookDeadline;
  /** How the transcript is followed (a prompt answered in the terminal); tests poll by hand. */
  follow?: FollowOptions;
  /**
   * When this hook process started (ms since the epoch; the CLI passes `performance.timeOrigin`), not when
   * it got round to its input: the terminal may answer while Node is still booting (R11.7).
   */
  startedAt: number;
  /** How the Claude Code process is watched while a finished turn's card is held (agent-process.ts); tests pass their own. */
  watchAgent?: (gone: () => void) => () => void;
}

/** This machine as the host names it: its name when joined to a hub, else as `askaway start` names it. */
function thisMachineName(env: Record<string, string | undefined>): string {
  return resolveHostTarget(env).hub?.machineName ?? machineNameFrom(env.ASKAWAY_MACHINE_NAME?.trim() || hostname());
}

/** A hook's JSON on stdin, bounded (shared with the Codex hook). */
export async function readAll(stdin: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_STDIN_BYTES) throw new Error(`more than ${MAX_STDIN_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * One command hook call (R11.2): the hook JSON on stdin, the reply on stdout.
 * Always exits 0: a hook that fails must not block the agent, so problems go to
 * stderr and Claude Code carries on as if there were no hook.
 */
export async function claudeCodeHookMain(flags: HookFlags, io: HookCommandIo): Promise<number> {
  let payload: unknown;
  try {
    payload = JSON.parse(await readAll(io.stdin));
  } catch (error) {
    io.stderr(`askaway hook: could not read the hook JSON on stdin (${errorMessage(error)})\n`);
    return 0;
  }
  const runtime = runtimeClientProvider({ env: io.env });
  try {
    const output = await handleClaudeCodeHook(payload, {
      runtime,
      timeoutMs: flags.timeoutMs,
      formWaitMs: flags.formWaitMs,
      machineName: thisMachineName(io.env),
      allTools: flags.allTools,
      signal: io.signal,
      deadline: io.deadline,
      follow: io.follow,
      startedAt: io.startedAt,
      log: (line) => io.stderr(`${line}\n`),
      finishedTurns: {
        role: flags.finishedCard ? 'card' : 'wait',
        repliesOff: flags.noReply,
        isAway: () => askAway(io.env, (line) => io.stderr(`${line}\n`)),
        replyWaitMs: flags.replyWaitMs,
        watchAgent: io.watchAgent ?? watchAgentProcess,
        cardHoldMs: (CLAUDE_CODE_DIALOG_HOOK_TIMEOUT_S - 60) * 1000,
        blockCap: io.env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP,
      },
    });
    // Nobody reads a cancelled hook's reply, and writing to a closed pipe would crash before the withdrawal is sent.
    if (!io.signal?.aborted && Object.keys(output).length > 0) io.stdout(`${JSON.stringify(output)}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
}
