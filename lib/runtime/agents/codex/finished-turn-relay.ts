// Carries the finished turns of one Codex home's threads to the phone, and a reply from there back as the thread's
// next prompt (R19.20–R19.25).
import { errorMessage, type AgentRef, type FinishedTurnStatus } from '../../../contracts';
import { type FinishedTurns, type FinishedTurnOutcome } from '../../finished-turns';
import { contextOf } from './codex-prompt';
import { type DaemonRpc } from './daemon-rpc';
import {
  FINISHED_TURN_STATUSES,
  ThreadGoalResultSchema,
  ThreadIdOnlySchema,
  ThreadReadResultSchema,
  TurnListSchema,
  TurnNotificationSchema,
  TurnStartResultSchema,
  type CodexTurn,
} from './protocol';
import { type ThreadRegistry } from './thread-registry';

/** Shown when the Codex thread a card belongs to was closed (its TUI quit or moved on, the daemon unloaded it). */
export const THREAD_CLOSED_REASON = 'The Codex session was closed';
/** Shown when the daemon the thread ran on is gone: its turn ended with it, and no reply can reach it. */
export const DAEMON_STOPPED_REASON = "Codex's background server stopped";
/** Why a reply could not go out at all: no daemon to send it to. */
export const NO_DAEMON_PROBLEM = "Codex's background server is not running";

/** What the bridge last saw of a thread's turns: enough to tell a reply's turn from the terminal's (R19.22). */
interface TurnState {
  /** The newest turn seen start or end. */
  turnId: string;
  running: boolean;
}

/** Threads whose turn state is kept; the oldest is forgotten first (R12.19). */
const TURN_STATES_KEPT = 256;

interface Attached {
  instance: string;
  rpc: DaemonRpc;
  threads: ThreadRegistry;
}

export interface FinishedTurnRelayOptions {
  finishedTurns: FinishedTurns;
  log: (line: string) => void;
}

const isFinished = (status: string): status is FinishedTurnStatus =>
  (FINISHED_TURN_STATUSES as readonly string[]).includes(status);

/** The last thing the agent said in the turn: its last non-blank `agentMessage`. */
export function lastAgentMessage(turn: Pick<CodexTurn, 'items'>): string | undefined {
  for (let index = turn.items.length - 1; index >= 0; index -= 1) {
    const item = turn.items[index];
    if (item?.type === 'agentMessage' && item.text?.trim()) return item.text;
  }
  return undefined;
}

/**
 * `turn/completed` of one of the person's threads (never the title thread, never a subagent's) is a card; a turn
 * started there by anyone but this relay answers that card from the terminal; a reply from the phone is sent with
 * `turn/start` only after checking that the thread is idle and its last turn is still the card's.
 */
export class FinishedTurnRelay {
  private attached: Attached | null = null;
  /** The daemon process the cards' threads run on: a new one means their turns ended with the old one. */
  private instance = '';
  /** Oldest first, at most TURN_STATES_KEPT. */
  private readonly turns = new Map<string, TurnState>();
  /** Turn ids this relay's own `turn/start` started or steered into: not the terminal's answer. */
  private readonly ownTurns = new Set<string>();

  constructor(private readonly options: FinishedTurnRelayOptions) {}

  attach(instance: string, rpc: DaemonRpc, threads: ThreadRegistry): void {
    if (this.instance !== '' && this.instance !== instance) this.lose(this.instance);
    this.instance = instance;
    this.attached = { instance, rpc, threads };
  }

  /** The connection closed: the cards stay (a reply waits for the next connection to the same daemon). */
  detach(): void {
    this.attached = null;
  }

  /** The daemon process `instance` is gone: its threads' cards leave the phone. */
  lose(instance: string): void {
    if (instance !== this.instance) return;
    this.turns.clear();
    this.ownTurns.clear();
    this.options.finishedTurns.close(DAEMON_STOPPED_REASON);
  }

  stop(reason: string): void {
    this.attached = null;
    this.options.finishedTurns.close(reason);
  }

  onNotification(method: string, params: unknown): void {
    if (method === 'turn/started' || method === 'turn/completed') {
      const parsed = TurnNotificationSchema.safeParse(params);
      if (!parsed.success) return;
      const { threadId, turn } = parsed.data;
      const running = method === 'turn/started';
      this.remember(threadId, { turnId: turn.id, running });
      if (running) {
        // Anyone's new turn but ours is the person's next prompt: typed in the TUI (or another client).
        if (!this.ownTurns.has(turn.id)) this.options.finishedTurns.answeredInTerminal(threadId);
      } else this.report(threadId, turn);
      return;
    }
    if (method === 'thread/closed') {
      const parsed = ThreadIdOnlySchema.safeParse(params);
      if (!parsed.success) return;
      this.turns.delete(parsed.data.threadId);
      this.options.finishedTurns.forget(parsed.data.threadId, THREAD_CLOSED_REASON);
    }
  }

  /**
   * A thread was joined: its last turn may have ended before (the first turn of a new thread runs before it can be
   * joined; a bridge started later). If it has ended and nothing runs, it is the card the phone should show. Announced
   * again by its id, a card the phone already answered comes back resolved, and nothing is shown twice.
   */
  async joined(threadId: string): Promise<void> {
    const attached = this.attached;
    if (!attached || !attached.threads.isPersons(threadId)) return;
    const last = await this.lastTurn(attached, threadId);
    if (!last || !isFinished(last.status)) return;
    const known = this.turns.get(threadId);
    // A turn/started or turn/completed went by meanwhile: that notification is the newer word.
    if (known && known.turnId !== last.id) return;
    this.remember(threadId, { turnId: last.id, running: false });
    this.report(threadId, last);
  }

  private remember(threadId: string, state: TurnState): void {
    this.turns.delete(threadId);
    this.turns.set(threadId, state);
    while (this.turns.size > TURN_STATES_KEPT) {
      const oldest = this.turns.keys().next();
      if (oldest.done) break;
      this.turns.delete(oldest.value);
    }
  }

  private async lastTurn(attached: Attached, threadId: string): Promise<CodexTurn | undefined> {
    const listed = TurnListSchema.parse(
      await attached.rpc.request('thread/turns/list', { threadId, limit: 1, sortDirection: 'desc' }),
    );
    return listed.data[0];
  }

  private report(threadId: string, turn: CodexTurn): void {
    const attached = this.attached;
    if (!attached || !isFinished(turn.status) || !attached.threads.isPersons(threadId)) return;
    const status = turn.status;
    this.announce(attached, threadId, turn, status)
      .then((outcome) => {
        if (outcome !== 'not-shown') this.options.log(`finished turn of thread ${threadId.slice(0, 8)}: ${outcome}`);
      })
      .catch((error: unknown) =>
        this.options.log(`could not show a finished turn of thread ${threadId.slice(0, 8)}: ${errorMessage(error)}`),
      );
  }

  private async announce(
    attached: Attached,
    threadId: string,
    turn: CodexTurn,
    status: FinishedTurnStatus,
  ): Promise<FinishedTurnOutcome> {
    // A thread with an active goal wakes itself: Codex starts the next turn on its own (R19.20, as R19.1 asks).
    if (status === 'completed' && (await this.goalActive(attached, threadId))) return 'not-shown';
    // `turn/completed` carries the turn's items in 0.171 (`itemsView: summary`); an interrupted turn's are not
    // loaded, and may hold what the agent had said before the interruption.
    const message = lastAgentMessage(turn) ?? (await attached.threads.agentMessage(threadId, turn.id));
    const version = attached.threads.version(threadId);
    const agent: AgentRef = { kind: 'codex', name: 'Codex', ...(version ? { version } : {}) };
    const { cwd, title } = attached.threads.context(threadId);
    const context = contextOf({ cwd, title });
    const error = status === 'failed' ? turn.error?.message : undefined;
    // The reply's check needs the turn's id only: the turn itself (its items, any size) is not kept with the card.
    const turnId = turn.id;
    return this.options.finishedTurns.finished(
      {
        sessionId: threadId,
        turnId,
        agent,
        ...(context ? { context } : {}),
        status,
        ...(message !== undefined ? { message } : {}),
        ...(error ? { error } : {}),
        reply: 'prompt',
      },
      (text) => this.deliver(threadId, turnId, text),
    );
  }

  /** Whether the thread has a goal Codex is still pursuing; a daemon that cannot say counts as none. */
  private async goalActive(attached: Attached, threadId: string): Promise<boolean> {
    try {
      const result = ThreadGoalResultSchema.parse(await attached.rpc.request('thread/goal/get', { threadId }));
      return result.goal?.status === 'active';
    } catch {
      return false;
    }
  }

  /**
   * Sends the phone's reply as the thread's next prompt (R19.21), only if the thread is idle and its last turn is
   * still `turnId` (R19.22): asked of the daemon right before sending, and of what this relay saw. A prompt typed
   * between that answer and `turn/start` arriving is the gap that remains: Codex then steers the reply into the
   * person's turn (it has no "start only if idle"), and the log says so.
   */
  private async deliver(threadId: string, turnId: string, text: string): Promise<'sent' | 'busy'> {
    const attached = this.attached;
    if (!attached || attached.rpc.isClosed) throw new Error(NO_DAEMON_PROBLEM);
    const seen = this.turns.get(threadId);
    if (seen && (seen.running || seen.turnId !== turnId)) return 'busy';
    const [read, last] = await Promise.all([
      attached.rpc.request('thread/read', { threadId }),
      this.lastTurn(attached, threadId),
    ]);
    const thread = ThreadReadResultSchema.parse(read).thread;
    // After a failed turn the thread says `systemError`, not `idle`: nothing runs there either.
    if (thread.status?.type === 'active' || last?.id !== turnId || !isFinished(last.status)) return 'busy';
    const now = this.turns.get(threadId);
    if (now && (now.running || now.turnId !== turnId)) return 'busy';
    const started = TurnStartResultSchema.parse(
      await attached.rpc.request('turn/start', { threadId, input: [{ type: 'text', text, text_elements: [] }] }),
    ).turn;
    this.ownTurns.add(started.id);
    if (this.ownTurns.size > TURN_STATES_KEPT) this.ownTurns.delete(this.ownTurns.values().next().value ?? '');
    return 'sent';
  }
}
