// Carries the finished turns of OpenCode's sessions to the phone, and a reply from there back as the session's next
// prompt (R19.30–R19.35).
import path from 'node:path';
import { errorMessage, ID_MAX, type InteractionContext } from '../../../contracts';
import { type FinishedTurns } from '../../finished-turns';
import {
  OpenCodeMessageUpdatedSchema,
  OpenCodeMessagesSchema,
  OpenCodeMessageWithPartsSchema,
  OpenCodeSessionErrorSchema,
  OpenCodeSessionEventSchema,
  OpenCodeSessionSchema,
  OpenCodeSessionStatusSchema,
  type OpenCodeError,
} from './opencode-shapes';
import { isNewer, keptError, saidIn, turnEnd } from './turn-end';
import { OPENCODE_AGENT } from './to-interaction';

/** Shown when the session a card belongs to was deleted in OpenCode. */
export const SESSION_DELETED_REASON = 'The OpenCode session was deleted';
/** Shown when OpenCode closed (or restarted): the bridge that would send the reply went with it. */
export const OPENCODE_GONE_REASON = 'OpenCode closed (or restarted): a reply can no longer reach this session';
/**
 * After `session.idle` the card waits this long: an abort's or a failure's own `message.updated` comes just after the
 * idle (and a second idle with it), and OpenCode closing aborts every busy session just before the plugin says bye.
 */
export const TURN_SETTLE_MS = 500;
/** Sessions whose turns are followed; the oldest is forgotten first (R12.19). */
const SESSIONS_KEPT = 256;
/** A turn's assistant messages kept (one per step); the text is looked for in the last few of them. */
const REPLIES_KEPT = 16;
const REPLIES_READ = 4;

export interface CallResult {
  status: number;
  data?: unknown;
  error?: unknown;
}

export interface FinishedTurnRelayOptions {
  finishedTurns: FinishedTurns;
  /** An HTTP call to OpenCode through the plugin, with that directory instance's client. */
  call: (instance: number, method: 'GET' | 'POST', url: string, body?: unknown) => Promise<CallResult>;
  /** The instance's directory and OpenCode's version, or undefined once it is gone. */
  place: (instance: number) => { directory: string; version?: string } | undefined;
  log: (line: string) => void;
  settleMs?: number;
}

export interface FinishedTurnRelay {
  onEvent(instance: number, event: { type: string; properties: unknown }): void;
  /** The directory instance went away: its sessions' cards leave the phone. */
  closeInstance(instance: number): void;
  /** OpenCode is gone: every card leaves the phone. */
  close(): void;
}

/** What the relay follows of one session. */
interface SessionState {
  instance: number;
  /** The prompt (user message) the newest assistant message answers: the running or last turn. */
  prompt?: string;
  /** That turn's assistant messages, oldest first. */
  replies: string[];
  /** The turn's error (`session.error`, or its last message's own). */
  error?: OpenCodeError;
  /** The newest user message seen: a newer one than a card's message is the person's next prompt. */
  newestPrompt?: string;
  /** The last assistant message reported: `session.idle` comes twice for one turn. */
  reported?: string;
  /** The assistant message whose card is open. */
  card?: string;
  settling?: ReturnType<typeof setTimeout>;
  /** The last assistant message of the turn that settles. */
  settlingFor?: string;
}

const encode = encodeURIComponent;
const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

export function createFinishedTurnRelay(options: FinishedTurnRelayOptions): FinishedTurnRelay {
  const { finishedTurns, call, log } = options;
  /** Oldest first, at most SESSIONS_KEPT. */
  const sessions = new Map<string, SessionState>();

  const stateOf = (instance: number, sessionID: string): SessionState => {
    let state = sessions.get(sessionID);
    if (!state) {
      state = { instance, replies: [] };
      sessions.set(sessionID, state);
      while (sessions.size > SESSIONS_KEPT) {
        const [oldest] = sessions.keys();
        if (oldest === undefined) break;
        drop(oldest);
      }
    }
    return state;
  };

  const drop = (sessionID: string, reason?: string) => {
    const state = sessions.get(sessionID);
    if (!state) return;
    if (state.settling) clearTimeout(state.settling);
    sessions.delete(sessionID);
    if (reason !== undefined) finishedTurns.forget(sessionID, reason);
  };

  const onMessage = (instance: number, properties: unknown) => {
    const parsed = OpenCodeMessageUpdatedSchema.safeParse(properties);
    if (!parsed.success) return;
    const { info } = parsed.data;
    const state = stateOf(instance, info.sessionID);
    if (info.role === 'user') {
      // OpenCode sends the turn's own prompt again right after `session.idle`: only a newer one is an answer.
      if (state.newestPrompt !== undefined && !isNewer(info.id, state.newestPrompt)) return;
      state.newestPrompt = info.id;
      if (state.card !== undefined && isNewer(info.id, state.card)) finishedTurns.answeredInTerminal(info.sessionID);
      return;
    }
    if (info.role !== 'assistant' || info.parentID === undefined) return;
    if (info.parentID !== state.prompt) {
      state.prompt = info.parentID;
      state.replies = [];
      state.error = undefined;
    }
    if (!state.replies.includes(info.id)) state.replies = [...state.replies, info.id].slice(-REPLIES_KEPT);
    if (info.error) state.error = keptError(info.error);
  };

  const onIdle = (sessionID: string) => {
    // A session no message was heard of has no turn to show (and an id no OpenCode sends is not kept).
    const state = sessions.get(sessionID);
    const ended = state?.replies.at(-1);
    // One timer per session: the same turn's second idle keeps it, a newer turn's replaces it.
    if (!state || (state.settling && state.settlingFor === ended)) return;
    if (state.settling) clearTimeout(state.settling);
    state.settlingFor = ended;
    state.settling = setTimeout(() => {
      state.settling = undefined;
      // A prompt came while the turn settled (typed at once, or one OpenCode had queued): the session moved on.
      if (ended === undefined || movedOn(sessionID, ended)) return;
      report(sessionID, state, ended).catch((error: unknown) =>
        log(`askaway: the finished turn of session ${sessionID} was not shown: ${errorMessage(error)}`),
      );
    }, options.settleMs ?? TURN_SETTLE_MS);
  };

  /** The newest of the turn's messages that said something, newest first, a few at most. */
  const lastSaid = async (instance: number, sessionID: string, replies: readonly string[]) => {
    for (const id of replies.slice(-REPLIES_READ).reverse()) {
      const result = await call(instance, 'GET', `/session/${encode(sessionID)}/message/${encode(id)}`);
      const parsed = OpenCodeMessageWithPartsSchema.safeParse(result.data);
      if (result.status !== 200 || !parsed.success) continue;
      const said = saidIn(parsed.data);
      if (said !== '') return said;
    }
    return undefined;
  };

  const report = async (sessionID: string, state: SessionState, turnId: string) => {
    const place = options.place(state.instance);
    if (turnId === state.reported || !place || sessions.get(sessionID) !== state) return;
    state.reported = turnId;
    const { instance } = state;
    const read = await call(instance, 'GET', `/session/${encode(sessionID)}`);
    const session = OpenCodeSessionSchema.safeParse(read.data);
    if (read.status !== 200 || !session.success) {
      log(`askaway: could not read OpenCode session ${sessionID} (${read.status}): its finished turn is not shown`);
      return;
    }
    // A subagent's session (`task`) ends its own turns: its parent's turn goes on (R19.30).
    if (session.data.parentID) return;
    const message = await lastSaid(instance, sessionID, state.replies);
    const end = turnEnd(state.error);
    const directory = session.data.directory ?? place.directory;
    // While OpenCode was asked, the instance went away (OpenCode closed: no one to reply to) or a prompt came.
    if (sessions.get(sessionID) !== state || !options.place(instance) || movedOn(sessionID, turnId)) return;
    const context: InteractionContext = {
      cwd: clip(directory, 1_000),
      projectName: clip(path.basename(directory), ID_MAX),
      ...(session.data.title ? { sessionTitle: clip(session.data.title, ID_MAX) } : {}),
    };
    state.card = turnId;
    const outcome = await finishedTurns.finished(
      {
        sessionId: sessionID,
        turnId,
        agent: place.version ? { ...OPENCODE_AGENT, version: place.version } : OPENCODE_AGENT,
        context,
        status: end.status,
        ...(message !== undefined ? { message } : {}),
        ...(end.error !== undefined ? { error: end.error } : {}),
        reply: 'prompt',
      },
      (text) => deliver(instance, sessionID, turnId, text),
    );
    if (state.card === turnId) state.card = undefined;
    if (outcome !== 'not-shown') log(`askaway: finished turn of session ${sessionID}: ${outcome}`);
  };

  /** Whether what the relay heard says the session moved on from the card's turn. */
  const movedOn = (sessionID: string, turnId: string) => {
    const state = sessions.get(sessionID);
    if (!state) return false;
    const last = state.replies.at(-1);
    return (
      (last !== undefined && last !== turnId) ||
      (state.newestPrompt !== undefined && isNewer(state.newestPrompt, turnId))
    );
  };

  /**
   * Sends the phone's reply as the session's next prompt (R19.31), only if the session is idle and its newest message
   * is still the card's (R19.32): asked of OpenCode right before sending, and of what the relay heard. A prompt typed
   * between that answer and `prompt_async` reaching OpenCode is the gap that remains: OpenCode then queues the reply
   * after the person's prompt ("QUEUED" in the TUI), and runs it once that turn ends.
   */
  const deliver = async (instance: number, sessionID: string, turnId: string, text: string) => {
    if (movedOn(sessionID, turnId)) return 'busy' as const;
    const [status, newest] = await Promise.all([
      call(instance, 'GET', '/session/status'),
      call(instance, 'GET', `/session/${encode(sessionID)}/message?limit=1`),
    ]);
    const statuses = OpenCodeSessionStatusSchema.safeParse(status.data);
    const messages = OpenCodeMessagesSchema.safeParse(newest.data);
    if (status.status !== 200 || !statuses.success || newest.status !== 200 || !messages.success)
      throw new Error(`OpenCode did not say whether the session is idle (${status.status}, ${newest.status})`);
    // Idle sessions are left out of OpenCode's status list.
    const busy = (statuses.data[sessionID]?.type ?? 'idle') !== 'idle';
    if (busy || messages.data.at(-1)?.info.id !== turnId || movedOn(sessionID, turnId)) return 'busy' as const;
    const sent = await call(instance, 'POST', `/session/${encode(sessionID)}/prompt_async`, {
      parts: [{ type: 'text', text }],
    });
    if (sent.status < 200 || sent.status > 299) throw new Error(`OpenCode refused the prompt (${sent.status})`);
    return 'sent' as const;
  };

  return {
    onEvent(instance, event) {
      switch (event.type) {
        case 'message.updated':
          return onMessage(instance, event.properties);
        case 'session.error': {
          const parsed = OpenCodeSessionErrorSchema.safeParse(event.properties);
          if (parsed.success && parsed.data.sessionID && parsed.data.error)
            stateOf(instance, parsed.data.sessionID).error = keptError(parsed.data.error);
          return;
        }
        case 'session.idle':
        case 'session.deleted': {
          const parsed = OpenCodeSessionEventSchema.safeParse(event.properties);
          const sessionID = parsed.success ? (parsed.data.sessionID ?? parsed.data.info?.id) : undefined;
          if (sessionID === undefined) return;
          if (event.type === 'session.idle') return onIdle(sessionID);
          drop(sessionID);
          finishedTurns.forget(sessionID, SESSION_DELETED_REASON);
          return;
        }
      }
    },
    closeInstance(instance) {
      for (const [sessionID, state] of [...sessions])
        if (state.instance === instance) drop(sessionID, OPENCODE_GONE_REASON);
    },
    close() {
      for (const sessionID of [...sessions.keys()]) drop(sessionID);
      finishedTurns.close(OPENCODE_GONE_REASON);
    },
  };
}
