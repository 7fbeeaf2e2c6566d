import { randomUUID } from 'node:crypto';
import {
  ASK_USER_QUESTION_TOOL_NAME,
  CLAUDE_CODE_INPUT_RULES,
  errorMessage,
  isRecord,
  EXIT_PLAN_MODE_TOOL_NAME,
  type InputRules,
} from '../../../contracts';
import {
  childSubagentContext,
  type BrokerResult,
  type PermissionBrokerPort,
  withSubagentInteractionBroker,
} from '../../../core';
import { type RuntimeClient } from '../../runtime-broker';
import { HOST_CHECK_TIMEOUT_MS, type RuntimeClientProvider } from '../../runtime-client-provider';
import { type FollowOptions } from './follow-transcript';
import { CLAUDE_CODE_DIALOG_HOOK_TIMEOUT_S } from './install';
import {
  ClaudeCodeHookPayloadSchema,
  type ClaudeCodeHookOutput,
  type ClaudeCodeHookPayload,
  type PreToolUseOutput,
} from './hook-payload';
import { toPlanApprovalInput } from './plan-input';
import { toDialogAnswer, toUpdatedInput } from './to-answer';
import { toAskUserQuestionInput } from './to-interaction';
import { askForm } from './elicitation';
import { finishedTurnHook, isFinishedTurnEvent, type FinishedTurnHookOptions } from './finished-turn';
import { CLAUDE_CODE_AGENT, contextOf, rootOrigin } from './hook-context';
import { skippedContext } from './skipped-context';
import { watchTerminalAnswer, type DecidedElsewhere } from './terminal-answer';

/**
 * The old PreToolUse path (R11.2): Claude Code kills a hook after 600 s by default and shows nothing while
 * it runs, so the hook gives up 60 s earlier and hands the question to the terminal.
 */
export const DEFAULT_HOOK_TIMEOUT_MS = 540_000;
/**
 * PermissionRequest paths (R11.8): Claude Code's own dialog is open beside the hook and outlives it, so the
 * card lives as long as the question: up to the hook timeout `askaway hook install` writes
 * (CLAUDE_CODE_DIALOG_HOOK_TIMEOUT_S, a day), less a minute so the card says why it leaves.
 */
export const DIALOG_HOOK_TIMEOUT_MS = (CLAUDE_CODE_DIALOG_HOOK_TIMEOUT_S - 60) * 1000;
/** Shown on the phone when Claude Code cancels the hook (signal, or the HTTP request closed). */
export const HOOK_CANCELLED_REASON =
  'Claude Code stopped waiting (answered in the terminal, or the turn was interrupted)';

/** Calls `expire` once `ms` have passed; returns how to cancel that. Tests pass their own clock. */
export type HookDeadline = (ms: number, expire: () => void) => () => void;

const realDeadline: HookDeadline = (ms, expire) => {
  const timer = setTimeout(expire, ms);
  return () => clearTimeout(timer);
};

export interface ClaudeCodeHookOptions {
  runtime: RuntimeClientProvider;
  /**
   * When to stop waiting for the phone and leave the question to the terminal; by default
   * DIALOG_HOOK_TIMEOUT_MS for PermissionRequest, DEFAULT_HOOK_TIMEOUT_MS for the old PreToolUse path.
   */
  timeoutMs?: number | undefined;
  /** Also answer PermissionRequest for tools other than ExitPlanMode (opt-in). */
  allTools?: boolean;
  /** How long an MCP form (Elicitation) waits for the phone before Claude Code shows it (DEFAULT_FORM_WAIT_MS). */
  formWaitMs?: number | undefined;
  /** The machine Claude Code runs on, as the card's machine chip names it: where a form moves to (R11.11). */
  machineName?: string | undefined;
  hostCheckTimeoutMs?: number;
  /** Aborted when Claude Code gave up on the hook (HTTP request closed). */
  signal?: AbortSignal;
  /** How the `timeoutMs` fallback is kept; defaults to a real timer. */
  deadline?: HookDeadline;
  /** How the transcript is followed for a prompt answered in the terminal; tests poll by hand. */
  follow?: FollowOptions;
  /**
   * When Claude Code started this hook call (ms since the epoch; default: now). Tool results the transcript
   * dates before then answered earlier calls. The command hook passes its process's start: Claude Code shows
   * its own dialog as it starts the hook, and Node takes a few hundred ms (seconds on a busy machine) to
   * boot, load the CLI and read stdin, so an answer typed in the terminal meanwhile is dated before `now`.
   */
  startedAt?: number;
  log?: (line: string) => void;
  /**
   * Whether the paths in the payload (transcript, plan file) name files of this machine. False on the hub
   * for a joined machine's HTTP hook: its paths are that machine's, and the hub opens no file a machine
   * names (its credential is for the runtime side only). Default true.
   */
  localFiles?: boolean;
  /**
   * Finished turns (`Stop`, `StopFailure`, R19.50): only the command hook takes them, with what it needs to know
   * whether the person is away. Without it (the HTTP hook) they are left to Claude Code.
   */
  finishedTurns?: FinishedTurnHookOptions;
}

const NO_OPINION: ClaudeCodeHookOutput = {};

/**
 * One Claude Code hook call (R11.2, R11.8, R11.11): PermissionRequest answers AskUserQuestion while Claude
 * Code's own dialog is open, and approves plans (and, opt-in, any tool); PreToolUse for AskUserQuestion is the
 * path of settings written before, still answered; Elicitation fills in an MCP server's form (elicitation.ts). Never throws: anything unexpected yields a reply that
 * lets Claude Code carry on.
 */
export async function handleClaudeCodeHook(
  raw: unknown,
  options: ClaudeCodeHookOptions,
): Promise<ClaudeCodeHookOutput> {
  const log = options.log ?? (() => undefined);
  if (isRecord(raw) && raw.hook_event_name === 'Elicitation') return askForm(raw, options);
  if (isFinishedTurnEvent(raw))
    return options.finishedTurns ? finishedTurnHook(raw, options, options.finishedTurns) : NO_OPINION;
  const parsed = ClaudeCodeHookPayloadSchema.safeParse(raw);
  if (!parsed.success) {
    log('askaway hook: not a PreToolUse/PermissionRequest/Elicitation payload; ignoring it');
    return NO_OPINION;
  }
  const payload = parsed.data;
  const startedAt = options.startedAt ?? Date.now();
  const event = payload.hook_event_name;
  if (event === 'PreToolUse' && payload.tool_name === ASK_USER_QUESTION_TOOL_NAME) return askQuestion(payload, options);
  if (event === 'PermissionRequest' && payload.tool_name === ASK_USER_QUESTION_TOOL_NAME)
    return askBesideDialog(payload, options, startedAt);
  if (event === 'PermissionRequest' && payload.tool_name === EXIT_PLAN_MODE_TOOL_NAME)
    return approve(payload, options, 'plan', startedAt);
  if (event === 'PermissionRequest' && options.allTools && payload.tool_name !== ASK_USER_QUESTION_TOOL_NAME) {
    return approve(payload, options, 'tool', startedAt);
  }
  return NO_OPINION;
}

type Outcome = { ok: true; result: BrokerResult } | { ok: false; timedOut: boolean; message: string };

/** Starts watching for the call being decided elsewhere; `settle(how)` withdraws the card. Returns how to stop. */
type ElsewhereWatch = (settle: (how: DecidedElsewhere) => void) => () => void;

/** How long the phone has on each path (R11.8): the old PreToolUse hook blocks the terminal, a dialog does not. */
function timeoutFor(options: ClaudeCodeHookOptions, beside: 'dialog' | 'nothing'): number {
  return options.timeoutMs ?? (beside === 'dialog' ? DIALOG_HOOK_TIMEOUT_MS : DEFAULT_HOOK_TIMEOUT_MS);
}

/** The watch for a prompt the terminal's own dialog shows too; none where the hub cannot read the transcript. */
function terminalWatch(
  payload: ClaudeCodeHookPayload,
  options: ClaudeCodeHookOptions,
  startedAt: number,
): ElsewhereWatch | undefined {
  if (!(options.localFiles ?? true)) return undefined;
  return (settle) => watchTerminalAnswer(payload, startedAt, settle, options.follow);
}

/**
 * AskUserQuestion while Claude Code's dialog is open (R11.8): the first answer wins. The phone's answer
 * closes the dialog; a terminal answer withdraws the card with what was chosen, and the hook then says
 * nothing (Claude Code reads no hook output once the dialog is answered).
 */
async function askBesideDialog(
  payload: ClaudeCodeHookPayload,
  options: ClaudeCodeHookOptions,
  startedAt: number,
): Promise<ClaudeCodeHookOutput> {
  const input = toAskUserQuestionInput(payload.tool_input);
  const outcome = await requestDecision(payload, options, input, {
    inputRules: CLAUDE_CODE_INPUT_RULES,
    elsewhere: terminalWatch(payload, options, startedAt),
    timeoutMs: timeoutFor(options, 'dialog'),
    timeoutReason: 'No answer in time: the question is still open in the terminal',
    openInTerminal: payload.agent_id === undefined,
  });
  if (!outcome.ok) return NO_OPINION;
  const { result } = outcome;
  // Claude Code gives the model a deny's message as it is.
  const decision =
    result.decision === 'deny'
      ? { behavior: 'deny' as const, message: result.message }
      : {
          behavior: 'allow' as const,
          updatedInput: toDialogAnswer(payload.tool_input, result.decision === 'modify' ? result.modifiedInput : {}),
        };
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
}

async function askQuestion(
  payload: ClaudeCodeHookPayload,
  options: ClaudeCodeHookOptions,
): Promise<ClaudeCodeHookOutput> {
  // Claude Code already accepted this call: the phone takes what Claude Code takes (R11.2).
  const input = toAskUserQuestionInput(payload.tool_input);
  const outcome = await requestDecision(payload, options, input, {
    inputRules: CLAUDE_CODE_INPUT_RULES,
    timeoutMs: timeoutFor(options, 'nothing'),
    timeoutReason: 'No answer in time: the question went back to the terminal',
  });
  const reply = (
    permissionDecision: 'allow' | 'deny' | 'ask',
    reason: string,
    extra: Pick<PreToolUseOutput['hookSpecificOutput'], 'updatedInput' | 'additionalContext'> = {},
  ): PreToolUseOutput => ({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision, permissionDecisionReason: reason, ...extra },
  });
  if (!outcome.ok) return reply('ask', outcome.message);
  const { result } = outcome;
  if (result.decision === 'deny') return reply('deny', result.message);
  const modified = result.decision === 'modify' ? result.modifiedInput : {};
  const updatedInput = toUpdatedInput(payload.tool_input, modified);
  const additionalContext = skippedContext(payload.tool_input, updatedInput.answers);
  return reply('allow', 'Answered in Askaway', {
    updatedInput,
    ...(additionalContext === undefined ? {} : { additionalContext }),
  });
}

async function approve(
  payload: ClaudeCodeHookPayload,
  options: ClaudeCodeHookOptions,
  what: 'plan' | 'tool',
  startedAt: number,
): Promise<ClaudeCodeHookOutput> {
  const log = options.log ?? (() => undefined);
  const localFiles = options.localFiles ?? true;
  const input =
    what === 'plan' ? await toPlanApprovalInput(payload.tool_input, log, { readFile: localFiles }) : payload.tool_input;
  // Claude Code shows its own dialog while this hook runs, and may leave the hook running once the
  // person answered there: the transcript says so.
  const outcome = await requestDecision(payload, options, input, {
    elsewhere: terminalWatch(payload, options, startedAt),
    timeoutMs: timeoutFor(options, 'dialog'),
    timeoutReason: 'No answer in time: the prompt is still open in the terminal',
    openInTerminal: payload.agent_id === undefined,
  });
  // Without a decision, Claude Code shows its own permission dialog (or already took the answer).
  if (!outcome.ok) return NO_OPINION;
  const { result } = outcome;
  // Allow echoes the tool input Claude Code sent, unchanged: that is what it runs the tool with.
  const decision =
    result.decision === 'deny'
      ? { behavior: 'deny' as const, message: result.message }
      : { behavior: 'allow' as const, updatedInput: payload.tool_input };
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
}

interface DecisionOptions {
  inputRules?: InputRules;
  /** How a decision elsewhere (the terminal) is noticed. */
  elsewhere?: ElsewhereWatch | undefined;
  timeoutMs: number;
  /** Shown on the phone when the phone's time is up. */
  timeoutReason: string;
  /** The terminal shows the prompt too (R11.10). */
  openInTerminal?: boolean;
}

async function requestDecision(
  payload: ClaudeCodeHookPayload,
  options: ClaudeCodeHookOptions,
  input: unknown,
  decision: DecisionOptions,
): Promise<Outcome> {
  const { inputRules, elsewhere, timeoutMs } = decision;
  const requestId = `claude-code-${payload.hook_event_name}-${payload.tool_use_id ?? randomUUID()}`.slice(0, 200);
  const controller = new AbortController();
  let runtime: RuntimeClient | undefined;
  const onOuterAbort = () => {
    // Say why on the phone before the broker's generic "aborted" withdrawal.
    runtime?.connection.withdraw(requestId, HOOK_CANCELLED_REASON).catch(() => undefined);
    controller.abort(options.signal?.reason);
  };
  if (options.signal?.aborted) controller.abort(options.signal.reason);
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let timedOut = false;
  let settledElsewhere: string | undefined;
  let cancelDeadline: () => void = () => undefined;
  let stopWatching: () => void = () => undefined;
  try {
    runtime = options.runtime.get(payload.agent_type ? `Claude Code (${payload.agent_type})` : 'Claude Code');
    stopWatching =
      elsewhere?.((how) => {
        settledElsewhere = how.reason;
        runtime?.connection.withdraw(requestId, how.reason, how.terminalAnswer).catch(() => undefined);
        controller.abort(new Error(how.reason));
      }) ?? stopWatching;
    cancelDeadline = (options.deadline ?? realDeadline)(timeoutMs, () => {
      timedOut = true;
      // Say why on the phone, then stop waiting; the terminal takes over.
      runtime?.connection.withdraw(requestId, decision.timeoutReason).catch(() => undefined);
      controller.abort(new Error('hook timeout'));
    });
    await runtime.connection.ready(options.hostCheckTimeoutMs ?? HOST_CHECK_TIMEOUT_MS);
    const { broker, sessionId, origin } = routing(payload, runtime.broker);
    const result = await broker.requestPermission(
      {
        requestId,
        sessionId,
        toolName: payload.tool_name,
        toolUseId: payload.tool_use_id || undefined,
        input,
        origin,
        agent: CLAUDE_CODE_AGENT,
        context: await contextOf(
          payload,
          options.localFiles ?? true,
          decision.openInTerminal ? { openInTerminal: true } : {},
          options.log,
        ),
        ...(inputRules === undefined ? {} : { inputRules }),
      },
      { signal: controller.signal },
    );
    return { ok: true, result };
  } catch (error) {
    if (settledElsewhere !== undefined) {
      options.log?.(`askaway hook: ${settledElsewhere}; withdrawn from the phone`);
      return { ok: false, timedOut, message: settledElsewhere };
    }
    if (timedOut) {
      return {
        ok: false,
        timedOut,
        message: `No answer in Askaway within ${Math.round(timeoutMs / 1000)} s; answer here instead.`,
      };
    }
    options.log?.(`askaway hook: ${errorMessage(error)} (the terminal asks instead)`);
    return { ok: false, timedOut, message: `Askaway could not take this question: ${errorMessage(error)}` };
  } finally {
    stopWatching();
    cancelDeadline();
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/** R7: a subagent's call goes through the subagent wrapper, so it lands in the root session with its origin. */
function routing(payload: ClaudeCodeHookPayload, broker: PermissionBrokerPort) {
  if (payload.agent_id) {
    const context = childSubagentContext(
      { sessionId: payload.session_id },
      {
        agentId: payload.agent_id,
        agentName: payload.agent_type || 'subagent',
        agentType: payload.agent_type,
        sessionId: `${payload.session_id}/${payload.agent_id}`.slice(0, 200),
      },
    );
    return { broker: withSubagentInteractionBroker(broker, context), sessionId: context.sessionId, origin: undefined };
  }
  return { broker, sessionId: payload.session_id, origin: rootOrigin(payload.session_id) };
}
