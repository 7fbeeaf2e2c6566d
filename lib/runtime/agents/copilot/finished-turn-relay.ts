// Carries the finished turns of the Copilot sessions the bridge follows to the phone, and a reply from there back
// as the session's next prompt (R19.40–R19.46). A turn is Copilot's interaction: the prompt's `user.message`, the
// model calls and tools it ran, then `session.idle` once nothing runs (no background agent or shell either).
import { errorMessage, type AgentRef, type FinishedTurnStatus, type InteractionContext } from '../../../contracts';
import { type FinishedTurnOutcome, type FinishedTurns } from '../../finished-turns';
import {
  AssistantMessageSchema,
  IdleSchema,
  ProcessingSchema,
  QueueItemsSchema,
  SendResultSchema,
  SessionErrorSchema,
  TurnStartSchema,
  UserMessageSchema,
  WithdrawResultSchema,
  type SessionEvent,
} from './copilot-shapes';
import { type RpcConnection } from './json-rpc';

/** Shown when Copilot exits or closes its port: no reply can reach its sessions any more. */
export const COPILOT_GONE_REASON = 'Copilot closed';
/** Why a reply could not go out at all. */
export const NO_COPILOT_PROBLEM = 'Copilot is not running';
/** Sessions whose turn state is kept; the oldest is forgotten first (R12.19). */
const SESSIONS_KEPT = 200;

/** What the relay saw of a session's current (or last) interaction. */
interface SessionTurn {
  /** Copilot's `interactionId`: one per prompt, the card's turn id. */
  interactionId?: string;
  running: boolean;
  /** The newest root `assistant.message`'s id, blank ones included: a new one means the session moved on. */
  lastAssistantId?: string;
  /** The interaction's last non-blank root message: what the card shows. Dropped once the turn is announced. */
  message?: string;
  /** `session.error` of the interaction. */
  error?: string;
}

/** What a card's reply is checked against right before it is sent (R19.42). */
interface CardTurn {
  interactionId: string;
  lastAssistantId?: string;
}

export interface CopilotTurnRelayOptions {
  finishedTurns: FinishedTurns;
  log: (line: string) => void;
  /** The agent as the bridge knows it (its version once `connect` said). */
  agent: () => AgentRef;
  /** The session's directory and title, as on its other cards. */
  context: (sessionId: string) => InteractionContext | undefined;
}

export class CopilotTurnRelay {
  private rpc: RpcConnection | undefined;
  /** Oldest first, at most SESSIONS_KEPT. */
  private readonly sessions = new Map<string, SessionTurn>();

  constructor(private readonly options: CopilotTurnRelayOptions) {}

  attach(rpc: RpcConnection): void {
    this.rpc = rpc;
  }

  /** Copilot is gone (its port closed, or the bridge stops): every card leaves, and no reply can be sent. */
  close(reason = COPILOT_GONE_REASON): void {
    this.rpc = undefined;
    this.sessions.clear();
    this.options.finishedTurns.close(reason);
  }

  /** One `session.event` of a followed session. A subagent's events (`agentId`) are never a turn of the person's. */
  onEvent(sessionId: string, event: SessionEvent): void {
    if (event.agentId) return;
    switch (event.type) {
      case 'user.message': {
        const data = UserMessageSchema.safeParse(event.data);
        // Typed in the TUI (or sent by another client): the person answered the card there. The prompt a reply of
        // ours sends arrives here too, while the shared helper holds that card as being sent, which it leaves alone.
        this.options.finishedTurns.answeredInTerminal(sessionId);
        this.started(sessionId, data.success ? data.data.interactionId : undefined);
        return;
      }
      case 'assistant.turn_start': {
        const data = TurnStartSchema.safeParse(event.data);
        this.started(sessionId, data.success ? data.data.interactionId : undefined);
        return;
      }
      case 'assistant.message': {
        const data = AssistantMessageSchema.safeParse(event.data);
        if (!data.success) return;
        // A bridge that attached mid-turn learns of the turn here first.
        const turn = this.started(sessionId, data.data.interactionId);
        turn.lastAssistantId = data.data.messageId;
        if (data.data.content?.trim()) turn.message = data.data.content;
        return;
      }
      case 'session.error': {
        const data = SessionErrorSchema.safeParse(event.data);
        const turn = this.sessions.get(sessionId);
        if (turn?.running) turn.error = (data.success ? data.data.message?.trim() : undefined) || 'Copilot failed';
        return;
      }
      case 'session.idle': {
        const data = IdleSchema.safeParse(event.data);
        this.idle(sessionId, data.success && data.data.aborted === true);
        return;
      }
      default:
        return;
    }
  }

  private turn(sessionId: string): SessionTurn {
    let turn = this.sessions.get(sessionId);
    if (turn) this.sessions.delete(sessionId);
    else turn = { running: false };
    this.sessions.set(sessionId, turn);
    while (this.sessions.size > SESSIONS_KEPT) {
      const oldest = this.sessions.keys().next();
      if (oldest.done) break;
      this.sessions.delete(oldest.value);
    }
    return turn;
  }

  /** A prompt's interaction began (or goes on with its next model call). */
  private started(sessionId: string, interactionId: string | undefined): SessionTurn {
    const turn = this.turn(sessionId);
    if (interactionId !== undefined && interactionId !== turn.interactionId) {
      turn.interactionId = interactionId;
      turn.message = undefined;
      turn.error = undefined;
    }
    turn.running = true;
    return turn;
  }

  /**
   * `session.idle`: the interaction ended. One the relay did not see run (Copilot idle when the bridge attached, an
   * idle said again) is nothing new to announce.
   */
  private idle(sessionId: string, aborted: boolean): void {
    const turn = this.sessions.get(sessionId);
    if (!turn?.running || turn.interactionId === undefined) {
      if (turn) turn.running = false;
      return;
    }
    turn.running = false;
    const status: FinishedTurnStatus = aborted ? 'interrupted' : turn.error !== undefined ? 'failed' : 'completed';
    const card: CardTurn = {
      interactionId: turn.interactionId,
      ...(turn.lastAssistantId ? { lastAssistantId: turn.lastAssistantId } : {}),
    };
    const { message, error } = turn;
    turn.message = undefined;
    turn.error = undefined;
    this.announce(sessionId, card, status, message, error)
      .then((outcome) => {
        if (outcome !== 'not-shown') this.options.log(`askaway: finished turn of session ${sessionId}: ${outcome}`);
      })
      .catch((problem: unknown) =>
        this.options.log(`askaway: could not show a finished turn of session ${sessionId}: ${errorMessage(problem)}`),
      );
  }

  private announce(
    sessionId: string,
    card: CardTurn,
    status: FinishedTurnStatus,
    message: string | undefined,
    error: string | undefined,
  ): Promise<FinishedTurnOutcome> {
    const context = this.options.context(sessionId);
    return this.options.finishedTurns.finished(
      {
        sessionId,
        turnId: card.interactionId,
        agent: this.options.agent(),
        ...(context ? { context } : {}),
        status,
        ...(message !== undefined ? { message } : {}),
        ...(status === 'failed' && error !== undefined ? { error } : {}),
        reply: 'prompt',
      },
      (text) => this.deliver(sessionId, card, text),
    );
  }

  /** Whether, as far as the relay heard, the session still rests where the card's turn left it. */
  private still(sessionId: string, card: CardTurn): boolean {
    const turn = this.sessions.get(sessionId);
    return (
      turn !== undefined &&
      !turn.running &&
      turn.interactionId === card.interactionId &&
      turn.lastAssistantId === card.lastAssistantId
    );
  }

  /**
   * Sends the phone's reply to the card's own session (R19.41), whichever the TUI shows now, only if it is idle and
   * its last root message is still the card's (R19.42): what the relay heard, then Copilot's `isProcessing`, right
   * before `session.send`. Copilot queues a message sent while a turn runs, so a prompt typed in between would put
   * the reply behind it: the relay then takes it back from the queue (`withdrawMessage`) and says busy. What remains
   * is that typed turn ending between the send and the take-back: the reply then runs after it, and the log says so.
   */
  private async deliver(sessionId: string, card: CardTurn, text: string): Promise<'sent' | 'busy'> {
    const rpc = this.rpc;
    if (!rpc) throw new Error(NO_COPILOT_PROBLEM);
    if (!this.still(sessionId, card)) return 'busy';
    const { processing } = ProcessingSchema.parse(await rpc.call('session.metadata.isProcessing', { sessionId }));
    if (processing || !this.still(sessionId, card)) return 'busy';
    const { messageId } = SendResultSchema.parse(await rpc.call('session.send', { sessionId, prompt: text }));
    const queue = QueueItemsSchema.safeParse(
      await rpc.call('session.queue.pendingItems', { sessionId }).catch(() => undefined),
    );
    if (!queue.success || !queue.data.items.some((item) => item.messageId === messageId)) return 'sent';
    const withdrawn = WithdrawResultSchema.safeParse(
      await rpc
        .call('session.queue.withdrawMessage', { sessionId, messageId, expectedPrompt: text })
        .catch(() => undefined),
    );
    if (withdrawn.success && withdrawn.data.removed) return 'busy';
    this.options.log(
      `askaway: the phone's reply to session ${sessionId} was queued behind a prompt typed as it was sent, and ran after it`,
    );
    return 'sent';
  }
}
