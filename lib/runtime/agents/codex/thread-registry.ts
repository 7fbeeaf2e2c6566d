// The threads of one daemon connection: which are the person's, what the card should say about them, and
// joining them (`thread/resume`) so their pending and future server requests reach the bridge (R18.10).
import { errorMessage } from '../../../contracts';
import { RpcError, type DaemonRpc } from './daemon-rpc';
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
  joined: boolean;
  joining: boolean;
  closed: boolean;
}

const NO_ROLLOUT = /no rollout found/i;
const MAX_LOADED_PAGES = 20;

/**
 * Joins every non-ephemeral loaded thread: on connect, when one starts, and whenever one turns active
 * (a new thread cannot be resumed until its first turn is saved: "no rollout found"). Joining makes the
 * daemon re-send the thread's pending server requests with their ids; new ones then arrive live.
 * Threads are only resumed when the daemon reports them loaded: resuming a closed one would load it.
 */
export class ThreadRegistry {
  private readonly threads = new Map<string, ThreadState>();
  /** File changes Codex announced per item (`item/started`): its approval request carries no diff. */
  private readonly changes = new Map<string, FileUpdateChange[]>();

  constructor(
    private readonly rpc: DaemonRpc,
    private readonly log: (line: string) => void,
    /** Called when the joined threads change. */
    private readonly onJoined: () => void = () => undefined,
  ) {}

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
        if (!thread) void this.consider(parsed.data.threadId);
        else if (!thread.joined && !thread.ignored && !thread.closed && parsed.data.status.type === 'active')
          void this.join(parsed.data.threadId);
        return;
      }
      case 'thread/name/updated': {
        const parsed = ThreadNameUpdatedSchema.safeParse(params);
        const thread = parsed.success ? this.threads.get(parsed.data.threadId) : undefined;
        if (thread && parsed.success && parsed.data.threadName) thread.context.title = parsed.data.threadName;
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
          if (method === 'item/started') this.changes.set(`${threadId}:${item.id}`, item.changes);
          else this.changes.delete(`${threadId}:${item.id}`);
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
    if (known) return known;
    try {
      const resumed = await this.rpc.request('thread/resume', { threadId, excludeTurns: false });
      const turns = ThreadResumeResultSchema.parse(resumed).thread.turns ?? [];
      for (const turn of [...turns].reverse()) {
        const items = ItemNotificationSchema.shape.item.array().safeParse((turn as { items?: unknown }).items);
        const found = items.success ? items.data.find((item) => item.id === itemId && item.changes) : undefined;
        if (found?.changes) return found.changes;
      }
    } catch (error) {
      this.log(`could not read the diff of ${itemId}: ${errorMessage(error)}`);
    }
    return undefined;
  }

  private learn(thread: CodexThread, joinNow: boolean): ThreadState {
    const known = this.threads.get(thread.id);
    const state: ThreadState = known ?? {
      context: {},
      ignored: false,
      joined: false,
      joining: false,
      closed: false,
    };
    state.ignored = thread.ephemeral;
    if (thread.cwd) state.context.cwd = thread.cwd;
    const title = thread.name ?? thread.preview;
    if (title) state.context.title = title;
    if (thread.cliVersion) state.version = thread.cliVersion;
    this.threads.set(thread.id, state);
    if (joinNow && !state.ignored) void this.join(thread.id);
    return state;
  }

  private async consider(threadId: string): Promise<void> {
    if (this.threads.has(threadId)) return;
    try {
      const read = ThreadReadResultSchema.parse(await this.rpc.request('thread/read', { threadId }));
      if (read.thread.status?.type === 'notLoaded') return;
      this.learn(read.thread, true);
    } catch (error) {
      if (!this.rpc.isClosed) this.log(`could not read thread ${threadId}: ${errorMessage(error)}`);
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
      this.onJoined();
    } catch (error) {
      // Not saved yet: the next thread/status/changed (its first turn starting) tries again.
      if (!(error instanceof RpcError && NO_ROLLOUT.test(error.message)) && !this.rpc.isClosed)
        this.log(`could not join thread ${threadId}: ${errorMessage(error)}`);
    } finally {
      state.joining = false;
    }
  }
}
