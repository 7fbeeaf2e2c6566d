// The threads of one daemon connection: which are the person's, what the card should say about them, and
// joining them (`thread/resume`) so their pending and future server requests reach the bridge (R18.10).
import {
  BRIDGE_SETTLED_IDS_KEPT,
  BRIDGE_FILE_CHANGES_KEPT,
  BRIDGE_FILE_CHANGES_MAX_CHARS,
  BRIDGE_THREADS_KEPT,
  ID_MAX,
  errorMessage,
  isRecord,
} from '../../../contracts';
import { BoundedSet } from '../../bounded-set';
import { keptFileChanges } from './approval-prompts';
import { keptClip } from './codex-prompt';
import { RpcBusyError, RpcError, type DaemonRpc } from './daemon-rpc';
import {
  ItemListSchema,
  ItemNotificationSchema,
  LoadedThreadsSchema,
  ThreadIdOnlySchema,
  ThreadNameUpdatedSchema,
  ThreadReadResultSchema,
  ThreadResumeResultSchema,
  ThreadStartedSchema,
  ThreadStatusChangedSchema,
  type CodexThread,
  type FileUpdateChange,
} from './protocol';
import { type CodexThreadContext } from './to-interaction';

interface ThreadState {
  context: CodexThreadContext;
  version?: string;
  /** Title generation and other side threads: never joined. */
  ignored: boolean;
  /** A subagent's thread: joined (its prompts reach the phone), but its turns are not the person's (R19.20). */
  subagent: boolean;
  joined: boolean;
  joining: boolean;
  closed: boolean;
}

const NO_ROLLOUT = /no rollout found/i;
/** How the WebSocket says a frame was past BRIDGE_FRAME_MAX_BYTES (it closes the connection with it). */
const MAX_PAYLOAD = /max payload size exceeded/i;
const MAX_LOADED_PAGES = 20;
/** What the card shows of a thread's folder at most (whereAndWhy); its title is clipped to ID_MAX as the card does. */
const CWD_KEPT = 4_096;
/** Threads that could not be read or joined whose line the log shows, per connection; the rest are counted once. */
const THREAD_PROBLEMS_LOGGED = 20;
/** AgentRef's version field. */
const VERSION_KEPT = 80;

export interface ThreadRegistryLimits {
  threads: number;
  fileChangeItems: number;
  fileChangeChars: number;
}

const DEFAULT_LIMITS: ThreadRegistryLimits = {
  threads: BRIDGE_THREADS_KEPT,
  fileChangeItems: BRIDGE_FILE_CHANGES_KEPT,
  fileChangeChars: BRIDGE_FILE_CHANGES_MAX_CHARS,
};

/** The characters one item's kept changes hold: what BRIDGE_FILE_CHANGES_MAX_CHARS counts. */
const charsOf = (changes: readonly FileUpdateChange[]) =>
  changes.reduce(
    (sum, change) => sum + change.path.length + change.diff.length + (change.kind.move_path?.length ?? 0),
    0,
  );

/**
 * Joins every non-ephemeral loaded thread: on connect, when one starts, and whenever one turns active
 * (a new thread cannot be resumed until its first turn is saved: "no rollout found"). Joining makes the
 * daemon re-send the thread's pending server requests with their ids; new ones then arrive live.
 * Threads are only resumed when the daemon reports them loaded: resuming a closed one would load it.
 */
export class ThreadRegistry {
  /** Oldest first (a thread learned again moves to the end); at most `limits.threads` (R12.19). */
  private readonly threads = new Map<string, ThreadState>();
  /**
   * File changes Codex announced per item (`item/started`): its approval request carries no diff. Only what the
   * card shows of them, oldest first, at most `limits.fileChangeItems` items and `limits.fileChangeChars` (R12.19).
   */
  private readonly changes = new Map<string, { changes: FileUpdateChange[]; chars: number }>();
  private changeChars = 0;
  /** Whether the log said a bound was reached, once per connection and bound rather than once per entry. */
  private readonly boundSaid = new Set<'threads' | 'changes' | 'requests' | 'problems'>();
  private threadProblems = 0;
  private readonly limits: ThreadRegistryLimits;

  constructor(
    private readonly rpc: DaemonRpc,
    private readonly log: (line: string) => void,
    /** Called when the joined threads change: with the thread's id when one was joined. */
    private readonly onJoined: (threadId?: string) => void = () => undefined,
    limits: Partial<ThreadRegistryLimits> = {},
    /**
     * Threads whose `thread/resume` with turns came back past the frame bound, which cost the connection: not
     * asked again, or each re-join would re-send the approval and ask again (R12.19). Kept by the home, across
     * connections.
     */
    private readonly turnsTooBig = new BoundedSet(BRIDGE_SETTLED_IDS_KEPT),
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** What the registry holds now: threads, file-change items and their characters (R12.19). */
  get held(): { threads: number; fileChangeItems: number; fileChangeChars: number } {
    return { threads: this.threads.size, fileChangeItems: this.changes.size, fileChangeChars: this.changeChars };
  }

  /** Threads joined now. */
  get joinedCount(): number {
    return [...this.threads.values()].filter((thread) => thread.joined).length;
  }

  context(threadId: string): CodexThreadContext {
    return this.threads.get(threadId)?.context ?? {};
  }

  version(threadId: string): string | undefined {
    return this.threads.get(threadId)?.version;
  }

  /**
   * A thread the person talks to: joined, not a side thread (the title's), not a subagent's, not closed. Its
   * finished turns reach the phone (R19.20).
   */
  isPersons(threadId: string): boolean {
    const thread = this.threads.get(threadId);
    return thread !== undefined && thread.joined && !thread.ignored && !thread.subagent && !thread.closed;
  }

  /** Lists the loaded threads and joins each of the person's. */
  async joinLoaded(): Promise<void> {
    let cursor: string | null | undefined;
    for (let page = 0; page < MAX_LOADED_PAGES; page += 1) {
      const loaded = LoadedThreadsSchema.parse(await this.rpc.request('thread/loaded/list', cursor ? { cursor } : {}));
      await Promise.all(loaded.data.map((threadId) => this.consider(threadId)));
      cursor = loaded.nextCursor;
      if (!cursor) return;
    }
  }

  /** Notifications that change what the bridge knows about threads. */
  onNotification(method: string, params: unknown): void {
    switch (method) {
      case 'thread/started': {
        const parsed = ThreadStartedSchema.safeParse(params);
        if (parsed.success) this.learn(parsed.data.thread, true);
        return;
      }
      case 'thread/status/changed': {
        const parsed = ThreadStatusChangedSchema.safeParse(params);
        if (!parsed.success) return;
        const thread = this.threads.get(parsed.data.threadId);
        if (!thread) this.background(this.consider(parsed.data.threadId));
        else if (!thread.joined && !thread.ignored && !thread.closed && parsed.data.status.type === 'active')
          this.background(this.join(parsed.data.threadId));
        return;
      }
      case 'thread/name/updated': {
        const parsed = ThreadNameUpdatedSchema.safeParse(params);
        const thread = parsed.success ? this.threads.get(parsed.data.threadId) : undefined;
        if (thread && parsed.success && parsed.data.threadName)
          thread.context.title = keptClip(parsed.data.threadName, ID_MAX);
        return;
      }
      case 'thread/closed': {
        const parsed = ThreadIdOnlySchema.safeParse(params);
        const thread = parsed.success ? this.threads.get(parsed.data.threadId) : undefined;
        if (thread) Object.assign(thread, { closed: true, joined: false });
        if (thread) this.onJoined();
        return;
      }
      case 'item/started':
      case 'item/completed': {
        const parsed = ItemNotificationSchema.safeParse(params);
        if (!parsed.success) return;
        const { threadId, item } = parsed.data;
        if (item.type === 'fileChange' && item.changes) {
          if (method === 'item/started') this.keepChanges(`${threadId}:${item.id}`, item.changes);
          else this.forgetChanges(`${threadId}:${item.id}`);
        }
        return;
      }
    }
  }

  /**
   * What Codex said last in this turn before asking (the card shows it above the prompt, R9.10). Asked of
   * the daemon each time: on a thread's first turn the bridge joins only once the turn runs, after the
   * message went by.
   */
  async agentMessage(threadId: string, turnId: string | undefined): Promise<string | undefined> {
    if (!turnId) return undefined;
    try {
      const listed = ItemListSchema.parse(
        await this.rpc.request('thread/items/list', { threadId, turnId, sortDirection: 'desc', limit: 20 }),
      );
      return listed.data.find((entry) => entry.item.type === 'agentMessage' && entry.item.text?.trim())?.item.text;
    } catch (error) {
      if (!this.rpc.isClosed) this.log(`could not read what Codex said before asking: ${errorMessage(error)}`);
      return undefined;
    }
  }

  /**
   * The file changes of a patch waiting for approval. A bridge that joined after `item/started` finds
   * them in the in-progress turn, which only a `thread/resume` with turns returns (`thread/read` has not
   * got it yet).
   */
  async fileChanges(threadId: string, itemId: string): Promise<FileUpdateChange[] | undefined> {
    const known = this.changes.get(`${threadId}:${itemId}`);
    if (known) return known.changes;
    if (this.turnsTooBig.has(threadId)) return undefined;
    try {
      const resumed = await this.rpc.request('thread/resume', { threadId, excludeTurns: false });
      const turns = ThreadResumeResultSchema.parse(resumed).thread.turns ?? [];
      for (const turn of [...turns].reverse()) {
        const items = ItemNotificationSchema.shape.item.array().safeParse((turn as { items?: unknown }).items);
        const found = items.success ? items.data.find((item) => item.id === itemId && item.changes) : undefined;
        if (found?.changes) return keptFileChanges(found.changes);
      }
    } catch (error) {
      if (MAX_PAYLOAD.test(errorMessage(error))) this.turnsTooBig.add(threadId);
      this.log(`could not read the diff of ${itemId}: ${errorMessage(error)}`);
    }
    return undefined;
  }

  /** A promise nobody awaits: a failure is a log line, never an unhandled rejection (R12.18). */
  private background(work: Promise<void>): void {
    work.catch((error: unknown) => this.log(`thread bookkeeping failed: ${errorMessage(error)}`));
  }

  private keepChanges(key: string, changes: readonly FileUpdateChange[]): void {
    if (key.length > 2 * ID_MAX + 1) return;
    this.forgetChanges(key);
    const kept = keptFileChanges(changes);
    const chars = charsOf(kept);
    this.changes.set(key, { changes: kept, chars });
    this.changeChars += chars;
    while (this.changes.size > this.limits.fileChangeItems || this.changeChars > this.limits.fileChangeChars) {
      const oldest = this.changes.keys().next();
      if (oldest.done) break;
      this.forgetChanges(oldest.value);
      this.sayBound(
        'changes',
        `more file changes announced than the bridge keeps (${this.limits.fileChangeItems} items, ${this.limits.fileChangeChars} characters): the oldest are forgotten, their approvals show no diff`,
      );
    }
  }

  private forgetChanges(key: string): void {
    const known = this.changes.get(key);
    if (!known) return;
    this.changes.delete(key);
    this.changeChars -= known.chars;
  }

  /** A thread that could not be read or joined: the first few are logged, then once that more are not (R12.19). */
  private threadProblem(line: string): void {
    this.threadProblems += 1;
    if (this.threadProblems <= THREAD_PROBLEMS_LOGGED) this.log(line);
    else this.sayBound('problems', `more threads could not be read or joined: not logged further on this connection`);
  }

  /** A flood of threads: those past the requests in flight are joined when they next turn active. */
  private busy(): void {
    this.sayBound('requests', 'too many threads to join at once: the rest are joined when they next turn active');
  }

  private sayBound(bound: 'threads' | 'changes' | 'requests' | 'problems', line: string): void {
    if (this.boundSaid.has(bound)) return;
    this.boundSaid.add(bound);
    this.log(`${line} (said once)`);
  }

  private learn(thread: CodexThread, joinNow: boolean): ThreadState | undefined {
    // A Codex thread id is a UUID: a longer one is nobody's thread, and would be kept as a key.
    if (thread.id.length > ID_MAX) return undefined;
    const known = this.threads.get(thread.id);
    const state: ThreadState = known ?? {
      context: {},
      ignored: false,
      subagent: false,
      joined: false,
      joining: false,
      closed: false,
    };
    state.ignored = thread.ephemeral;
    state.subagent = Boolean(thread.parentThreadId) || (isRecord(thread.source) && 'subAgent' in thread.source);
    // Only what a card shows of each field: a 50 KB preview is kept as the 200 characters of a title.
    if (thread.cwd) state.context.cwd = keptClip(thread.cwd, CWD_KEPT);
    const title = thread.name ?? thread.preview;
    if (title) state.context.title = keptClip(title, ID_MAX);
    if (thread.cliVersion) state.version = keptClip(thread.cliVersion, VERSION_KEPT);
    // Newest last, so the oldest is forgotten first.
    this.threads.delete(thread.id);
    this.threads.set(thread.id, state);
    while (this.threads.size > this.limits.threads) {
      const oldest = this.threads.keys().next();
      if (oldest.done) break;
      this.threads.delete(oldest.value);
      this.sayBound(
        'threads',
        `more threads than the bridge keeps (${this.limits.threads}): the oldest are forgotten, and joined again if they ask`,
      );
    }
    if (joinNow && !state.ignored) this.background(this.join(thread.id));
    return state;
  }

  private async consider(threadId: string): Promise<void> {
    if (this.threads.has(threadId)) return;
    try {
      const read = ThreadReadResultSchema.parse(await this.rpc.request('thread/read', { threadId }));
      if (read.thread.status?.type === 'notLoaded') return;
      this.learn(read.thread, true);
    } catch (error) {
      if (error instanceof RpcBusyError) this.busy();
      else if (!this.rpc.isClosed) this.threadProblem(`could not read thread ${threadId}: ${errorMessage(error)}`);
    }
  }

  private async join(threadId: string): Promise<void> {
    const state = this.threads.get(threadId);
    if (!state || state.joined || state.joining || state.ignored || state.closed) return;
    state.joining = true;
    try {
      const resumed = ThreadResumeResultSchema.parse(
        await this.rpc.request('thread/resume', { threadId, excludeTurns: true }),
      );
      state.joined = true;
      this.learn(resumed.thread, false);
      this.onJoined(threadId);
    } catch (error) {
      // Not saved yet: the next thread/status/changed (its first turn starting) tries again.
      if (error instanceof RpcBusyError) this.busy();
      else if (!(error instanceof RpcError && NO_ROLLOUT.test(error.message)) && !this.rpc.isClosed)
        this.threadProblem(`could not join thread ${threadId}: ${errorMessage(error)}`);
    } finally {
      state.joining = false;
    }
  }
}
