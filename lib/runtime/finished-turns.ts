// Finished turns (R19): when an agent ends its turn, the phone gets a card with what it said last, and a reply written
// there becomes the session's next prompt. One helper for every agent: its bridge says when a turn finished and how a
// reply is sent (`deliver`), this keeps one card per session, announces it, and says on the phone how the reply went.
import { createHash } from 'node:crypto';
import {
  BRIDGE_SETTLED_IDS_KEPT,
  DECLINE_MESSAGE_MAX,
  errorMessage,
  FINISHED_TURN_BUSY_REASON,
  FINISHED_TURN_EDITOR_REASON,
  FINISHED_TURN_ERROR_MAX,
  FINISHED_TURN_MESSAGE_MAX,
  FINISHED_TURN_TERMINAL_REASON,
  FINISHED_TURN_TOOL_NAME,
  ID_MAX,
  NEWER_TURN_REASON,
  type AgentRef,
  type FinishedTurnInput,
  type FinishedTurnNoReply,
  type FinishedTurnStatus,
  type InteractionContext,
} from '../contracts';
import { BoundedSet } from './bounded-set';
import { type RuntimeClient } from './runtime-broker';

/** What a bridge knows of a turn that just ended in the root session of its agent. */
export interface FinishedTurn {
  /** The agent's own session (Codex's thread id, OpenCode's session id): the card's session. */
  sessionId: string;
  /** The turn that ended, unique within the session: the card's business id is both (R19.2). */
  turnId: string;
  agent?: AgentRef;
  /** Project, folder, session title, as on the agent's other cards. */
  context?: InteractionContext;
  status: FinishedTurnStatus;
  /** The agent's last message, any length: clipped here (R19.1). */
  message?: string;
  /**
   * How long the message was, where the bridge kept only its start while it streamed in (R12.19): the card then says
   * it was clipped from this length. Without it, `message`'s own length.
   */
  messageLength?: number;
  /** Why a failed turn failed, in the agent's words. */
  error?: string;
  /** `none` where the agent's editor owns the prompt (ACP): the card shows the message and no reply box. */
  reply: 'prompt' | 'none';
  /** Why a card takes no reply, for the line it shows instead (default: the editor owns the prompt). */
  noReply?: FinishedTurnNoReply;
}

/**
 * Sends the phone's reply as the session's next prompt, after checking right before sending that the session is idle
 * and its last turn is still this card's (R19.6): `busy` when it is not, and nothing was sent.
 */
export type DeliverReply = (text: string) => Promise<'sent' | 'busy'>;

/** How one card ended, for the bridge's log and tests. */
export type FinishedTurnOutcome =
  'sent' | 'busy' | 'dismissed' | 'failed-to-send' | 'replaced' | 'answered-in-terminal' | 'withdrawn' | 'not-shown';

export interface FinishedTurnsOptions {
  /** The runtime connection, or how to get the current one (a provider remakes it after the host restarts). */
  client: RuntimeClient | (() => RuntimeClient);
  log: (line: string) => void;
}

export interface FinishedTurns {
  /**
   * A root session's turn ended (never a subagent's; never while background work will wake the agent): withdraws the
   * session's older card, announces this one, and once a reply wins sends it with `deliver`. Resolves with how the
   * card ended. The same turn reported again while its card is open, or after it ended, changes nothing.
   */
  finished(turn: FinishedTurn, deliver: DeliverReply): Promise<FinishedTurnOutcome>;
  /**
   * A prompt was typed at the agent's own terminal (R19.5): the session's card leaves as "Answered in the terminal",
   * or "Answered in the editor" where an editor owns the prompt (`where: 'editor'`, ACP). A card whose phone reply is
   * being sent right now is left alone: that new turn is the reply's own.
   */
  answeredInTerminal(sessionId: string, where?: 'terminal' | 'editor'): void;
  /** The session ended or the bridge lost it: its card leaves, with `reason` on the phone. */
  forget(sessionId: string, reason?: string): void;
  /** The request ids of open cards, by session (diagnostics, tests). */
  open(): Map<string, string>;
  /** Withdraws every open card (the agent went away). */
  close(reason: string): void;
}

/** Withdrawn this way when the bridge forgets a session without saying why. */
export const SESSION_GONE_REASON = 'The session ended';
/** What a long message gets in place of its cut end on the card: the card says it was clipped (clippedFrom). */
const CLIP_MARK = '…';

interface Card {
  requestId: string;
  sessionId: string;
  controller: AbortController;
  /** A reply won and is being sent: the turn it starts is not a terminal's answer. */
  delivering: boolean;
  ended?: FinishedTurnOutcome;
}

/** `turn:<session>:<turn>`, or a digest of both when that would pass the id limit (R19.2). */
export function finishedTurnRequestId(sessionId: string, turnId: string): string {
  const plain = `turn:${sessionId}:${turnId}`;
  if (plain.length <= ID_MAX) return plain;
  return `turn:${createHash('sha256').update(`${sessionId}\n${turnId}`).digest('hex')}`;
}

/** Cuts `text` to `max` UTF-16 units, never inside a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** The card's input: the message clipped to what the phone shows, saying from how long (R19.1, R12.12). */
export function finishedTurnInput(
  turn: Pick<FinishedTurn, 'status' | 'message' | 'messageLength' | 'error' | 'reply' | 'noReply'>,
): FinishedTurnInput {
  const input: FinishedTurnInput = { status: turn.status, reply: turn.reply };
  if (turn.reply === 'none' && turn.noReply !== undefined) input.noReply = turn.noReply;
  const message = turn.message ?? '';
  const length = Math.max(message.length, turn.messageLength ?? 0);
  if (message.trim() !== '') {
    if (length > FINISHED_TURN_MESSAGE_MAX || length > message.length) {
      input.message = cut(message, FINISHED_TURN_MESSAGE_MAX - CLIP_MARK.length) + CLIP_MARK;
      input.clippedFrom = length;
    } else input.message = message;
  }
  const error = turn.error?.trim() ?? '';
  if (turn.status === 'failed' && error !== '') input.error = cut(error, FINISHED_TURN_ERROR_MAX);
  return input;
}

export function createFinishedTurns(options: FinishedTurnsOptions): FinishedTurns {
  const { log } = options;
  const client = () => (typeof options.client === 'function' ? options.client() : options.client);
  /** The open card of each session: one at most (R19.3). */
  const cards = new Map<string, Card>();
  /** Cards that ended, so a turn reported again (OpenCode's double `session.idle`) does not come back (R12.17). */
  const ended = new BoundedSet(BRIDGE_SETTLED_IDS_KEPT);

  /** Takes `card` off the phone with `reason`, unless its reply is being sent; `afterAnswer` covers a reply in flight. */
  const withdraw = (
    card: Card,
    reason: string,
    outcome: FinishedTurnOutcome,
    terminal?: 'terminal' | 'editor',
  ): void => {
    if (card.delivering || card.ended) return;
    card.ended = outcome;
    if (cards.get(card.sessionId) === card) cards.delete(card.sessionId);
    ended.add(card.requestId);
    // A reply may have won on the host and be on its way here: withdrawing after the answer makes the phone say
    // why it was not sent, instead of leaving it "sent" (R18.25).
    let connection;
    try {
      connection = client().connection;
    } catch {
      connection = undefined;
    }
    connection
      ?.withdraw(
        card.requestId,
        reason,
        terminal === undefined ? undefined : terminal === 'editor' ? { where: 'editor' } : {},
        {
          afterAnswer: true,
        },
      )
      .catch(() => undefined);
    card.controller.abort(new Error(reason));
  };

  const send = async (card: Card, text: string, deliver: DeliverReply): Promise<FinishedTurnOutcome> => {
    card.delivering = true;
    let outcome: FinishedTurnOutcome;
    let reason: string | undefined;
    try {
      outcome = await deliver(text);
      if (outcome === 'busy') reason = FINISHED_TURN_BUSY_REASON;
    } catch (error) {
      outcome = 'failed-to-send';
      reason = `The reply could not be sent: ${errorMessage(error)}`.slice(0, DECLINE_MESSAGE_MAX);
    }
    if (reason !== undefined) {
      // The phone keeps the reply to copy, and says why it was not sent (R19.6).
      await client()
        .connection.withdraw(card.requestId, reason, undefined, { afterAnswer: true })
        .catch((error: unknown) =>
          log(`askaway: could not tell the phone why a reply was not sent: ${errorMessage(error)}`),
        );
    }
    return outcome;
  };

  return {
    async finished(turn, deliver) {
      const requestId = finishedTurnRequestId(turn.sessionId, turn.turnId);
      const previous = cards.get(turn.sessionId);
      if (previous?.requestId === requestId || ended.has(requestId)) return 'not-shown';
      if (previous) withdraw(previous, NEWER_TURN_REASON, 'replaced');
      const card: Card = { requestId, sessionId: turn.sessionId, controller: new AbortController(), delivering: false };
      cards.set(turn.sessionId, card);
      try {
        const resolution = await client().broker.requestInteraction(
          {
            kind: 'finished-turn',
            input: finishedTurnInput(turn),
            requestId,
            sessionId: cut(turn.sessionId, ID_MAX),
            toolName: FINISHED_TURN_TOOL_NAME,
            ...(turn.agent ? { agent: turn.agent } : {}),
            origin: {
              kind: 'root',
              label: turn.agent?.name ?? 'agent',
              path: [],
              depth: 0,
              sessionId: cut(turn.sessionId, ID_MAX),
              turnId: cut(turn.turnId, ID_MAX),
            },
            ...(turn.context ? { context: turn.context } : {}),
          },
          { signal: card.controller.signal },
        );
        if (card.ended) return card.ended;
        const response = resolution.response;
        const reply = response.action === 'accept' ? (response.content?.reply ?? '') : '';
        if (turn.reply === 'none' || reply.trim() === '') {
          card.ended = 'dismissed';
          return card.ended;
        }
        card.ended = await send(card, reply, deliver);
        log(
          card.ended === 'sent'
            ? `askaway: the phone's reply went to session ${turn.sessionId} as its next prompt`
            : `askaway: the phone's reply to session ${turn.sessionId} was not sent (${card.ended})`,
        );
        return card.ended;
      } catch (error) {
        if (card.ended) return card.ended;
        card.ended = 'not-shown';
        log(
          `askaway: a finished turn of session ${turn.sessionId} could not be shown on the phone: ${errorMessage(error)}`,
        );
        return card.ended;
      } finally {
        if (cards.get(turn.sessionId) === card) cards.delete(turn.sessionId);
        ended.add(requestId);
      }
    },
    answeredInTerminal(sessionId, where = 'terminal') {
      const card = cards.get(sessionId);
      if (!card) return;
      const reason = where === 'editor' ? FINISHED_TURN_EDITOR_REASON : FINISHED_TURN_TERMINAL_REASON;
      withdraw(card, reason, 'answered-in-terminal', where);
    },
    forget(sessionId, reason = SESSION_GONE_REASON) {
      const card = cards.get(sessionId);
      if (card) withdraw(card, reason, 'withdrawn');
    },
    open() {
      return new Map([...cards].map(([sessionId, card]) => [sessionId, card.requestId]));
    },
    close(reason) {
      for (const card of [...cards.values()]) withdraw(card, reason, 'withdrawn');
    },
  };
}
