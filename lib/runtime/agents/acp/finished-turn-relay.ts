// Finished turns of ACP agents (R19.60–R19.65): each `session/prompt` the editor sends is a turn, and the agent's
// response to it ends that turn. The card shows how it ended and the agent's last message, with no reply box: the
// editor owns the prompt, and a proxy that sent `session/prompt` behind its back would leave the editor showing a
// conversation the agent is no longer having. The editor's next prompt in the session answers the card.
import { errorMessage, FINISHED_TURN_ERROR_MAX, parseBoundedJson, type FinishedTurnStatus } from '../../../contracts';
import { type FinishedTurns } from '../../finished-turns';
import {
  JsonRpcErrorSchema,
  PromptResultSchema,
  SessionIdParamsSchema,
  SessionUpdateParamsSchema,
  WrappedErrorSchema,
} from './acp-shapes';
import { contextOf, type AcpPlace } from './to-interaction';
import { keptText, TurnMessage } from './turn-message';

/** Prompts watched at once (each keeps at most two clipped messages); past it the oldest is forgotten (R12.19). */
export const ACP_TURNS_WATCHED_MAX = 64;
/**
 * Finished-turn cards one proxy keeps on the phone at once (one per session, each up to FINISHED_TURN_MESSAGE_MAX
 * characters held by the runtime until answered); past it the oldest session's card leaves (R12.19).
 */
export const ACP_TURN_CARDS_MAX = 64;
/** Why a card left because the editor closed its session (`session/close`). */
export const SESSION_CLOSED_REASON = 'The session was closed in the editor';
/** Why the oldest card left to make room for a newer session's (ACP_TURN_CARDS_MAX). */
export const TOO_MANY_TURNS_REASON = 'Too many finished sessions from this editor at once';
/** Never said on the phone (the card takes no reply, and the host refuses one): what `deliver` would answer. */
const EDITOR_OWNS_PROMPT = 'the editor owns the prompt of an ACP session';

/**
 * How a turn that ended with `stopReason` shows (R19.61): `end_turn` finished, `cancelled` interrupted; a turn the
 * agent stopped before its work was done (out of tokens or model requests, a refusal, a reason ACP adds later)
 * failed, saying why. A result without a stop reason still ended the turn.
 */
export function turnEnd(stopReason: string | undefined): { status: FinishedTurnStatus; error?: string } {
  switch (stopReason) {
    case undefined:
    case 'end_turn':
      return { status: 'completed' };
    case 'cancelled':
      return { status: 'interrupted' };
    case 'max_tokens':
      return { status: 'failed', error: 'The model reached its token limit' };
    case 'max_turn_requests':
      return { status: 'failed', error: 'The agent reached its limit of model requests for one turn' };
    case 'refusal':
      return { status: 'failed', error: 'The agent refused to go on' };
    default:
      return { status: 'failed', error: `The agent stopped: ${stopReason}` };
  }
}

/**
 * Why a prompt failed, from its JSON-RPC error (R19.63): the error's message, or the message inside it where the
 * agent passed its model's error on as JSON text (Gemini CLI 0.61 does), cut to what the card shows.
 */
export function failureOf(error: unknown): string {
  const parsed = JsonRpcErrorSchema.safeParse(error);
  const message = ((parsed.success ? parsed.data.message : undefined) ?? '').slice(0, 64 * 1024).trim();
  let reason = message;
  if (message.startsWith('{')) {
    const inner = parseBoundedJson(message);
    const wrapped = inner.ok ? WrappedErrorSchema.safeParse(inner.value) : undefined;
    const said = wrapped?.success ? (wrapped.data.error?.message ?? wrapped.data.message ?? '') : '';
    if (said.trim() !== '') reason = said.trim();
  }
  // The card keeps it while it is open: a string of its own, not a part of the agent's whole line.
  return reason === '' ? 'The agent answered the prompt with an error' : keptText(reason, FINISHED_TURN_ERROR_MAX);
}

interface Turn {
  /** The editor's JSON-RPC id for the prompt, as the proxy keys it. */
  key: string;
  sessionId: string;
  turnId: string;
  message: TurnMessage;
}

export interface AcpFinishedTurnRelayOptions {
  finishedTurns: FinishedTurns;
  /** Unique to the proxy process: a turn's id stays unique when another proxy loads the same session later. */
  proxyId: string;
  /** The agent and the session's folder, as on the proxy's other cards. */
  place: (sessionId: string) => AcpPlace;
  log: (line: string) => void;
  /** One log line per kind of trouble for the proxy's life. */
  sayOnce: (kind: string, line: string) => void;
}

export class AcpFinishedTurnRelay {
  /** Prompts whose response has not come, by the editor's request key, oldest first. */
  private readonly prompts = new Map<string, Turn>();
  /** Each session's newest prompt: the turn its updates belong to. */
  private readonly running = new Map<string, Turn>();
  private count = 0;

  constructor(private readonly options: AcpFinishedTurnRelayOptions) {}

  /** The editor sent `session/prompt`: the session's card, if any, was answered there (R19.62). */
  prompted(key: string, params: unknown): void {
    const parsed = SessionIdParamsSchema.safeParse(params);
    if (!parsed.success) return;
    const { sessionId } = parsed.data;
    this.options.finishedTurns.answeredInTerminal(sessionId, 'editor');
    // A prompt still running in the session is superseded (Gemini CLI cancels it): its end is no finished turn.
    const previous = this.running.get(sessionId);
    if (previous) this.prompts.delete(previous.key);
    this.count += 1;
    const turn: Turn = { key, sessionId, turnId: `${this.options.proxyId}-${this.count}`, message: new TurnMessage() };
    this.prompts.delete(key);
    this.prompts.set(key, turn);
    this.running.set(sessionId, turn);
    if (this.prompts.size <= ACP_TURNS_WATCHED_MAX) return;
    const oldest = this.prompts.values().next().value;
    if (!oldest) return;
    this.prompts.delete(oldest.key);
    if (this.running.get(oldest.sessionId) === oldest) this.running.delete(oldest.sessionId);
    this.options.sayOnce(
      'bound:turns',
      `askaway: over ${ACP_TURNS_WATCHED_MAX} prompts running at once; the oldest will not show as finished`,
    );
  }

  /** A `session/update` from the agent. */
  updated(params: unknown): void {
    const parsed = SessionUpdateParamsSchema.safeParse(params);
    if (parsed.success) this.running.get(parsed.data.sessionId)?.message.update(parsed.data.update);
  }

  /** The agent asked the editor for a permission in `params.sessionId`. */
  asked(params: unknown): void {
    const parsed = SessionIdParamsSchema.safeParse(params);
    if (parsed.success) this.running.get(parsed.data.sessionId)?.message.interrupt();
  }

  /** The agent answered the editor's request `key`: when it is a watched prompt, its turn ended. */
  responded(key: string, response: { result?: unknown; error?: unknown }): void {
    const turn = this.prompts.get(key);
    if (!turn) return;
    this.prompts.delete(key);
    if (this.running.get(turn.sessionId) === turn) this.running.delete(turn.sessionId);
    const end =
      response.error !== undefined
        ? { status: 'failed' as const, error: failureOf(response.error) }
        : turnEnd(PromptResultSchema.safeParse(response.result).data?.stopReason);
    this.show(turn, end);
  }

  /** The editor closed the session: its card leaves. */
  closed(params: unknown): void {
    const parsed = SessionIdParamsSchema.safeParse(params);
    if (!parsed.success) return;
    const turn = this.running.get(parsed.data.sessionId);
    if (turn) this.prompts.delete(turn.key);
    this.running.delete(parsed.data.sessionId);
    this.options.finishedTurns.forget(parsed.data.sessionId, SESSION_CLOSED_REASON);
  }

  /** The agent exited or the editor left: every card leaves with `reason`. */
  close(reason: string): void {
    this.prompts.clear();
    this.running.clear();
    this.options.finishedTurns.close(reason);
  }

  private show(turn: Turn, end: { status: FinishedTurnStatus; error?: string }): void {
    const { finishedTurns, log } = this.options;
    const open = finishedTurns.open();
    if (!open.has(turn.sessionId) && open.size >= ACP_TURN_CARDS_MAX) {
      const oldest = open.keys().next().value;
      if (oldest !== undefined) finishedTurns.forget(oldest, TOO_MANY_TURNS_REASON);
    }
    const place = this.options.place(turn.sessionId);
    const context = contextOf(place);
    const short = turn.sessionId.slice(0, 8);
    finishedTurns
      .finished(
        {
          sessionId: turn.sessionId,
          turnId: turn.turnId,
          agent: place.agent,
          ...(Object.keys(context).length > 0 ? { context } : {}),
          ...end,
          ...turn.message.result(),
          reply: 'none',
        },
        // A card without a reply box: a Dismiss ends it and nothing reaches the editor or the agent (R19.65).
        () => Promise.reject(new Error(EDITOR_OWNS_PROMPT)),
      )
      .then((outcome) => {
        if (outcome !== 'not-shown') log(`askaway: finished turn of session ${short}: ${outcome}`);
      })
      .catch((error: unknown) =>
        log(`askaway: could not show a finished turn of session ${short}: ${errorMessage(error)}`),
      );
  }
}
