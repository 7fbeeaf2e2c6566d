// Claude Code's finished turns (R19.50–R19.56): its `Stop` hook puts the turn on the phone, and while the person is
// away holds the turn until a reply comes from there, which Claude Code then takes as the hook's feedback.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { isRecord, type FinishedTurnNoReply, type InteractionContext } from '../../../contracts';
import { createFinishedTurns, type FinishedTurn } from '../../finished-turns';
import { HOST_CHECK_TIMEOUT_MS } from '../../runtime-client-provider';
import { CLAUDE_CODE_AGENT } from './hook-context';
import { type ClaudeCodeHookOptions, type HookDeadline } from './handle-hook';
import {
  hasRunningBackgroundWork,
  StopFailurePayloadSchema,
  StopPayloadSchema,
  type StopOutput,
  type StopPayload,
} from './stop-payload';
import { countStopHookContinuations, readLastAssistantUuid } from './transcript';
import { watchTranscriptNews, type TranscriptNews } from './typed-prompt-watch';

/** How the model is told whose words a reply is (R19.52): Claude Code labels hook output as not the user's own. */
export const PHONE_REPLY_PREFIX = 'The user replied from their phone: ';
/** The waiting hook's own limit when the person sets none: Claude Code's 600 s hook timeout, less a minute. */
export const DEFAULT_REPLY_WAIT_MS = 540_000;
/** Shown on the phone when the wait is over and Claude Code's turn ends. */
export const REPLY_WAIT_OVER_REASON = 'Claude Code stopped waiting for a reply: its turn ended';
/** Claude Code stopped the hook (Esc at the terminal, the session's end). */
export const STOPPED_WAITING_REASON = 'Claude Code stopped waiting (Esc at the terminal, or the session ended)';
/** The Claude Code process the card belongs to exited. */
export const AGENT_GONE_REASON = 'Claude Code exited';
/** Claude went on by itself (a background task or a scheduled prompt woke it). */
export const WORKING_AGAIN_REASON = 'Claude Code went on working';
/** Claude Code's own cap on Stop hook continuations in a row, unless CLAUDE_CODE_STOP_HOOK_BLOCK_CAP says otherwise. */
export const DEFAULT_STOP_HOOK_BLOCK_CAP = 8;
/** A reply-less card is held for a day at most (the hook's own limit, less a minute). */
export const CARD_HOLD_OVER_REASON = 'This finished turn is no longer shown: a day has passed';

/** What the command hook adds to handle Stop and StopFailure; the HTTP hook has none of it, so it ignores them. */
export interface FinishedTurnHookOptions {
  /**
   * `wait`: the blocking Stop hook, which holds the turn for a reply while the person is away. `card`: the background
   * (`async`) one, which shows the turn without a reply when nobody waits for one, and every failed turn.
   */
  role: 'wait' | 'card';
  /** `--no-reply` (R19.53): finished turns are shown and never wait for a reply. */
  repliesOff: boolean;
  /** Whether the person is away (R19.50). */
  isAway(): Promise<boolean>;
  /** `--reply-wait`: how long the waiting hook holds the turn (default DEFAULT_REPLY_WAIT_MS). */
  replyWaitMs?: number | undefined;
  /** Calls `gone` once the Claude Code process exits (agent-process.ts); returns how to stop watching. */
  watchAgent?: (gone: () => void) => () => void;
  /** How long a reply-less card is held (default a day, less a minute). */
  cardHoldMs: number;
  /** Claude Code's CLAUDE_CODE_STOP_HOOK_BLOCK_CAP as the hook's environment has it (R19.56). */
  blockCap?: string | undefined;
}

/** How many continuations in a row Claude Code takes from Stop hooks: its env var when it is a number, else 8. */
export function stopHookBlockCap(value: string | undefined): number {
  const parsed = value === undefined ? Number.NaN : Number(value.trim());
  return Number.isInteger(parsed) && parsed >= 0 ? parsed : DEFAULT_STOP_HOOK_BLOCK_CAP;
}

const realDeadline: HookDeadline = (ms, expire) => {
  const timer = setTimeout(expire, ms);
  return () => clearTimeout(timer);
};

/** The card's turn id: the prompt and the transcript's last assistant entry, which a continued turn does not share. */
function turnIdOf(promptId: string | undefined, uuid: string | undefined, message: string, continued: boolean): string {
  const entry = uuid ?? createHash('sha256').update(`${continued}\n${message}`).digest('hex').slice(0, 32);
  return `${promptId ?? 'turn'}:${entry}`;
}

function contextOf(cwd: string | undefined): InteractionContext | undefined {
  if (!cwd) return undefined;
  const project = path.basename(cwd);
  return { cwd: cwd.slice(0, 1_000), ...(project ? { projectName: project.slice(0, 200) } : {}) };
}

/** Handles `Stop` and `StopFailure` for the command hook; `{}` (no opinion) for anything it does not take. */
export async function finishedTurnHook(
  raw: Record<string, unknown>,
  options: ClaudeCodeHookOptions,
  finished: FinishedTurnHookOptions,
): Promise<StopOutput | Record<string, never>> {
  const log = options.log ?? (() => undefined);
  if (raw.hook_event_name === 'StopFailure') {
    const parsed = StopFailurePayloadSchema.safeParse(raw);
    if (!parsed.success || finished.role !== 'card' || parsed.data.agent_id) return {};
    const payload = parsed.data;
    const uuid = await readLastAssistantUuid(payload.transcript_path, log);
    const error = payload.last_assistant_message?.trim() || payload.error || 'Claude Code ended the turn on an error';
    await hold(
      {
        sessionId: payload.session_id,
        turnId: `failed:${turnIdOf(payload.prompt_id, uuid, error, false)}`,
        agent: CLAUDE_CODE_AGENT,
        ...withContext(payload.cwd),
        status: 'failed',
        error,
        reply: 'none',
      },
      'turn-failed',
      payload.transcript_path,
      options,
      finished,
    );
    return {};
  }
  const parsed = StopPayloadSchema.safeParse(raw);
  if (!parsed.success) {
    log('askaway hook: not a Stop payload Askaway can read; the turn ends as usual');
    return {};
  }
  const payload = parsed.data;
  // A subagent's end is SubagentStop; background work wakes Claude again later (R19.1).
  if (payload.agent_id || hasRunningBackgroundWork(payload)) return {};
  const away = finished.repliesOff ? false : await finished.isAway();
  // Past Claude Code's cap it overrides a block and ends the turn: a reply then would be shown as sent and never
  // read, so the turn is shown without a reply box instead (R19.56).
  const capped =
    away && (await countStopHookContinuations(payload.transcript_path, log)) >= stopHookBlockCap(finished.blockCap);
  const waits = away && !capped;
  if (finished.role === 'wait' && !waits) return {};
  if (finished.role === 'card' && waits) return {};
  const turn = await finishedTurnOf(payload, log);
  if (finished.role === 'card') {
    const noReply = finished.repliesOff ? 'switched-off' : capped ? 'reply-limit' : 'not-away';
    await hold({ ...turn, reply: 'none' }, noReply, payload.transcript_path, options, finished);
    return {};
  }
  const reply = await hold({ ...turn, reply: 'prompt' }, undefined, payload.transcript_path, options, finished);
  return reply === undefined ? {} : { decision: 'block', reason: `${PHONE_REPLY_PREFIX}${reply}` };
}

function withContext(cwd: string | undefined): { context?: InteractionContext } {
  const context = contextOf(cwd);
  return context ? { context } : {};
}

async function finishedTurnOf(payload: StopPayload, log: (line: string) => void): Promise<Omit<FinishedTurn, 'reply'>> {
  const message = payload.last_assistant_message ?? '';
  const uuid = await readLastAssistantUuid(payload.transcript_path, log);
  return {
    sessionId: payload.session_id,
    turnId: turnIdOf(payload.prompt_id, uuid, message, payload.stop_hook_active === true),
    agent: CLAUDE_CODE_AGENT,
    ...withContext(payload.cwd),
    status: 'completed',
    message,
  };
}

/**
 * Announces the turn and holds its card until it is answered, the terminal or Claude goes on (R19.54), Claude Code
 * stops the hook or exits, or the time is up. Resolves with the phone's reply when one is to be given to Claude Code.
 */
async function hold(
  turn: FinishedTurn,
  noReply: FinishedTurnNoReply | undefined,
  transcriptPath: string | undefined,
  options: ClaudeCodeHookOptions,
  finished: FinishedTurnHookOptions,
): Promise<string | undefined> {
  const log = options.log ?? (() => undefined);
  const runtime = options.runtime.get('Claude Code');
  try {
    await runtime.connection.ready(options.hostCheckTimeoutMs ?? HOST_CHECK_TIMEOUT_MS);
  } catch (error) {
    log(
      `askaway hook: the host is not reachable (${error instanceof Error ? error.message : String(error)}); the turn ends as usual`,
    );
    return undefined;
  }
  const turns = createFinishedTurns({ client: runtime, log });
  const { sessionId } = turn;
  let news: TranscriptNews | undefined;
  const watch = watchTranscriptNews(
    transcriptPath,
    options.startedAt ?? Date.now(),
    (heard) => {
      news = heard;
      if (heard === 'typed') turns.answeredInTerminal(sessionId);
      else turns.forget(sessionId, WORKING_AGAIN_REASON);
    },
    options.follow,
  );
  const stopWatchingAgent =
    finished.watchAgent?.(() => turns.forget(sessionId, AGENT_GONE_REASON)) ?? (() => undefined);
  const waitMs = turn.reply === 'prompt' ? (finished.replyWaitMs ?? DEFAULT_REPLY_WAIT_MS) : finished.cardHoldMs;
  const cancelDeadline = (options.deadline ?? realDeadline)(waitMs, () =>
    turns.forget(sessionId, turn.reply === 'prompt' ? REPLY_WAIT_OVER_REASON : CARD_HOLD_OVER_REASON),
  );
  const onAbort = () => turns.forget(sessionId, STOPPED_WAITING_REASON);
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let reply: string | undefined;
  try {
    await turns.finished(noReply === undefined ? turn : { ...turn, noReply }, async (text) => {
      // Right before handing the reply over: a prompt typed or work begun since makes it late (R19.6).
      await watch.check();
      if (news !== undefined || options.signal?.aborted) return 'busy';
      reply = text;
      return 'sent';
    });
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    cancelDeadline();
    stopWatchingAgent();
    watch.stop();
  }
  return reply;
}

/** Whether a hook payload is one this module takes. */
export function isFinishedTurnEvent(raw: unknown): raw is Record<string, unknown> {
  return isRecord(raw) && (raw.hook_event_name === 'Stop' || raw.hook_event_name === 'StopFailure');
}
