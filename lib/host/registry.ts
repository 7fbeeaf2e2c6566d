import {
  CONNECTION_PENDING_SHARE,
  DEFAULT_MAX_PENDING_PER_MACHINE,
  HISTORY_PAGE_MAX_BYTES,
  PENDING_PAGE_MAX,
  PENDING_PAGE_MAX_BYTES,
  interactionKey,
  interactionKindForTool,
  isReservedLocalRequestId,
  LOCAL_MACHINE_ID,
  machineNameFrom,
  REMOTE_PROTOCOL_VERSION,
  runtimeRequestIdOf,
  PreferencesSchema,
  type AnnounceAck,
  type AnnounceBatch,
  type AnnounceBatchAck,
  type Device,
  type Failure,
  type HostEvent,
  type InteractionRecord,
  type InteractionRequest,
  type InteractionResolution,
  type InteractionView,
  type MachineInfo,
  type MachineRef,
  type NewDeviceEvent,
  type NewHostEvent,
  type NewMachineEvent,
  type NewPersonEvent,
  type NewGroupEvent,
  type QuestionOwner,
  type PreferencesAck,
  type PreferencesPatch,
  type RespondAck,
  type RespondCommand,
  type ResolutionAckCommand,
  type SimpleAck,
  type Snapshot,
  type TerminalAnswer,
  type WithdrawCommand,
} from '../contracts';
import { agentOf } from '../contracts/agent-of';
import { autoResolutionResolution, isAutoResolutionDue } from '../core';
import { autoResolutionFor, nextAutoResolution } from './auto-resolution';
import { DeadlineQueue } from './deadline-queue';
import { DeadlineTimer } from './deadline-timer';
import { HostProjection } from './projection';
import { RouteTable } from './route-table';
import { type SecretRelay } from './secret-relay';
import { type NewAuditEvent } from './audit/audit-trail';
import { redactResolutionForRemotes, redactTerminalAnswerFor, withholdsSecret } from './redact-secrets';
import { failure, type EventListener, type LifecycleEvent, type RuntimeNotifier } from './registry-types';
import { LogContendedError } from './log-contended-error';
import { type EventStore, LogMovedError } from './store/event-store';
import { validateResponseFor } from './validate-response';
import { WriteQueue } from './write-queue';
import { HOST_VERSION } from './version';

const FOLD_PAGE = 5_000;
/** Decisions one command makes before it gives up when another writer keeps appending first (R20.3). */
const MAX_DECISIONS = 5;

export interface RegistryOptions {
  store: EventStore;
  /** The machine's name in snapshots (R16.5's "removed from <host>"), and the hub's own machine's (R17.3). */
  hostName?: string;
  now?: () => Date;
  historyLimit?: number;
  onLifecycle?: (event: LifecycleEvent) => void;
  onError?: (error: unknown) => void;
  /** The machine list for snapshots (R17.5): records from the log plus live connections. */
  listMachines?: () => MachineInfo[];
  /** Interactions one machine may have waiting (R12.7). Default DEFAULT_MAX_PENDING_PER_MACHINE. */
  maxPendingPerMachine?: number;
  /**
   * The log is shared with other hub processes (R20.44): the stale sweep withdraws only questions announced to
   * this one, since re-announces to another never reach the log or this process.
   */
  sharedLog?: boolean;
  /** A team hub's way to hand a secret answer to the replica its agent is connected to (R20.47). */
  secretRelay?: SecretRelay;
}

/** A team hub's decisions about people, groups and whose a question is (R21.18, R21.19, R21.23). */
export type NewTeamEvent = NewPersonEvent | NewGroupEvent | Extract<NewHostEvent, { type: 'interaction.handed-over' }>;

/** How a team hub records a device's answer and a refused one, in the answer's own commit (R21.61). */
export interface RespondAudit {
  answered(view: InteractionView, resolution: InteractionResolution): NewHostEvent[];
  refused(view: InteractionView): NewHostEvent[];
}

/** What one command decided against the projection at the log's head. */
interface Decision<T> {
  /** What to append; none when the command changes nothing in the log. */
  events: NewHostEvent[];
  /** Who waits on this commit (the agent waiting for an answer, R13.1): told right after the append, before remotes. */
  first?: EventListener;
  /** Takes back what the decision kept in memory when its events were not appended. */
  undo?: () => void;
  /** Work that must be done before the append, e.g. handing a secret answer over (R20.47); a throw aborts it. */
  prepare?: () => Promise<void>;
  /** The command's answer once its events are durable and folded in. */
  done(stored: HostEvent[]): T;
}

/** A decision that writes nothing. */
function answer<T>(result: T): Decision<T> {
  return { events: [], done: () => result };
}

/**
 * Interactions keyed by machine and business requestId (R8.1, R17.4): the only writer of the log in this
 * process. Every command goes through one write queue (R20.1): it decides its events against the projection
 * as it stands at the log's head and appends them on condition that the log has not moved since (R20.2);
 * when another writer (a second hub replica) appended first, it folds that in and decides again (R20.3).
 * Only once the append is durable are the events folded into the projection and listeners (remotes) and the
 * runtime that owns them told, and the command acknowledged.
 *
 * Runtimes speak their own request ids; the registry keys (and remotes address) each interaction
 * by `interactionKey(machine, requestId)`, which is the runtime's id itself for the hub's own
 * machine. Every runtime-facing method takes the caller's machine (the hub's own by default) and
 * answers in that runtime's ids.
 */
export class InteractionRegistry {
  readonly projection = new HostProjection();
  /** The hub's own machine: agents holding the agent token (R17.3). */
  readonly localMachine: MachineRef;
  private readonly queue = new WriteQueue();
  private readonly routes = new RouteTable();
  /** Remotes' live streams first (a person may be looking), then observers such as push notifications. */
  private readonly listeners = { live: new Set<EventListener>(), other: new Set<EventListener>() };
  private readonly timer = new DeadlineTimer(() => this.fireDeadlines());
  /** Scheduled deadlines of pending interactions, kept in step with each commit. */
  private readonly deadlines = new DeadlineQueue();
  /** The deadline the timer is armed for; undefined when it is not armed. */
  private armedFor: number | null | undefined;
  private readonly now: () => Date;
  private notifier: RuntimeNotifier | undefined;
  /** Whether this process runs the deadlines: the one leader among replicas on a shared log (R20.43). */
  private leading = true;
  /** Epoch ms each pending requestId was last announced; memory only, like routes (R8.1). */
  private readonly lastAnnounced = new Map<string, number>();
  /**
   * Resolutions whose secret answers the log holds as the mask (R12.13), by host id, until the agent
   * acknowledges one: memory only, so a restart loses them and reopens their questions.
   */
  private readonly withheld = new Map<string, InteractionResolution>();
  /** On a shared log: the interactions whose agents announced to this process, the only ones it logs (R20.48). */
  private readonly announcedHere = new Set<string>();
  /** The leader's: since when no replica has had a route for each pending interaction (R20.67). */
  private readonly unroutedSince = new Map<string, number>();

  /**
   * Opens the registry over `options.store`: folds the whole log (R10.2), reopens secret answers a stopped
   * host lost (R12.13) and schedules the deadlines. Nothing can reach a registry before its log is folded.
   */
  static async open(options: RegistryOptions): Promise<InteractionRegistry> {
    const registry = new InteractionRegistry(options);
    await registry.load();
    return registry;
  }

  private constructor(private readonly options: RegistryOptions) {
    this.now = options.now ?? (() => new Date());
    this.localMachine = { id: LOCAL_MACHINE_ID, name: machineNameFrom(options.hostName) };
  }

  private async load(): Promise<void> {
    for (let events = await this.options.store.readSince(0, FOLD_PAGE); events.length > 0;) {
      for (const event of events) this.projection.apply(event);
      events = await this.options.store.readSince(this.projection.seq, FOLD_PAGE);
    }
    try {
      // On a shared log another replica may hold the secret and be handing it to its agent: only the replica an
      // agent re-announces to can tell whether it is lost (reopenIfLost).
      if (!this.options.sharedLog) await this.queue.run(() => this.reopenLostSecrets());
    } catch (error) {
      // A full disk: each re-announce of such a question tries again, and none gets the mask meanwhile.
      this.options.onError?.(error);
    }
    for (const view of this.projection.pending()) this.syncDeadline(view.requestId);
    // Restored interactions count as announced now: their runtimes get the full grace period to re-announce.
    this.restartSilenceClock();
  }

  /** Starts the deadline timer; deadlines that passed while the host was down fire now (R6.4). */
  start(notifier: RuntimeNotifier): Promise<void> {
    this.notifier = notifier;
    return this.queue.run(() => this.resolveDue());
  }

  /**
   * Whether this process runs the deadlines (R20.43). One that stops leading disarms its timer at once; one
   * that starts resolves what fell due meanwhile, then keeps the timer armed. The log keeps an auto-resolution
   * single anyway (a conditional append); this keeps it to one process's work.
   */
  lead(leading: boolean): void {
    if (leading === this.leading) return;
    this.leading = leading;
    if (!leading) {
      this.timer.clear();
      this.armedFor = undefined;
      return;
    }
    this.queue.run(() => this.resolveDue()).catch((error: unknown) => this.options.onError?.(error));
  }

  stop(): void {
    this.timer.clear();
    this.armedFor = undefined;
    this.listeners.live.clear();
    this.listeners.other.clear();
  }

  /**
   * Folds in what other writers (hub replicas on the same log) appended since this registry's last commit,
   * telling listeners exactly as for its own commits (R20.4). Queued like every command, so it never folds
   * in the middle of one.
   */
  catchUp(): Promise<number> {
    return this.queue.run(() => this.foldForeign());
  }

  /**
   * `find` against the projection and, when it finds nothing, once more after folding in what other hub
   * processes appended: a device paired or a machine joined through another replica a moment ago (R20.40).
   * A log out of reach answers from what is folded already.
   */
  async findCaughtUp<T>(find: () => T | undefined): Promise<T | undefined> {
    const found = find();
    if (found !== undefined) return found;
    try {
      await this.catchUp();
    } catch (error) {
      this.options.onError?.(error);
    }
    return find();
  }

  /** Resolves once every command queued so far has run: a host closes its log only after. */
  async settled(): Promise<void> {
    await this.queue.run(() => undefined);
  }

  /** Every committed batch of events, in order; `live` listeners (a remote's socket) hear before the others. */
  subscribe(listener: EventListener, options: { live?: boolean } = {}): () => void {
    const set = options.live ? this.listeners.live : this.listeners.other;
    set.add(listener);
    return () => set.delete(listener);
  }

  /** The log after `afterSeq` as far as this registry has folded it: what its listeners have heard of. */
  async readSince(afterSeq: number, limit: number): Promise<HostEvent[]> {
    const head = this.projection.seq;
    if (afterSeq >= head) return [];
    const events = await this.options.store.readSince(afterSeq, Math.min(limit, head - afterSeq));
    return events.filter((event) => event.seq <= head);
  }

  /**
   * Bounded (R12.7): a first page of the pending interactions with their total, and history up to a size; only the
   * questions `visible` lets through, when given (a member's device on a team hub, R21.17).
   */
  snapshot(visible?: (view: InteractionView) => boolean): Snapshot {
    const page = this.pendingPage(0, visible);
    const history: InteractionView[] = [];
    let historyBytes = 0;
    for (const view of this.projection.history(this.options.historyLimit ?? 200, visible)) {
      historyBytes += jsonSize(view);
      if (history.length > 0 && historyBytes > HISTORY_PAGE_MAX_BYTES) break;
      history.push(view);
    }
    return {
      protocolVersion: REMOTE_PROTOCOL_VERSION,
      hostVersion: HOST_VERSION,
      serverTime: this.now().toISOString(),
      logId: this.options.store.logId,
      seq: this.projection.seq,
      hostName: this.options.hostName ?? '',
      pending: page.pending,
      pendingTotal: page.pendingTotal,
      ...(page.pendingCursor !== undefined ? { pendingCursor: page.pendingCursor } : {}),
      history,
      preferences: this.projection.preferences,
      devices: this.projection.activeDevices(),
      machines: this.options.listMachines?.() ?? [],
    };
  }

  /** The pending interactions asked after the cursor `after` (0: from the first), one bounded page (R12.7). */
  pendingPage(
    after: number,
    visible?: (view: InteractionView) => boolean,
  ): { pending: InteractionView[]; pendingTotal: number; pendingCursor?: number } {
    const page = this.projection.pendingPage(after, {
      maxCount: PENDING_PAGE_MAX,
      maxBytes: PENDING_PAGE_MAX_BYTES,
      sizeOf: jsonSize,
      ...(visible ? { visible } : {}),
    });
    return {
      pending: page.views,
      pendingTotal: this.projection.pendingCountFor(visible),
      ...(page.cursor !== undefined ? { pendingCursor: page.cursor } : {}),
    };
  }

  /** The log's id: a seq means something only together with it (R10.6). */
  get logId(): string {
    return this.options.store.logId;
  }

  /**
   * Appends device events (paired, renamed, revoked): they share the log, its seq and its
   * listeners with interactions, so every remote hears of a pairing or a revocation at once.
   * `decide` gets the projection at the log's head and returns the events (none: nothing to do);
   * it may be asked again when another writer moved the log first (R20.3).
   */
  recordDeviceEvents(decide: () => readonly (NewDeviceEvent | NewAuditEvent)[]): Promise<HostEvent[]> {
    return this.queue.run(() => this.commit(() => ({ events: [...decide()], done: (stored) => stored })));
  }

  /** Appends person events (added, signed in) of a team hub (R21.8, R21.10); as above. */
  recordPersonEvents(decide: () => readonly (NewPersonEvent | NewAuditEvent)[]): Promise<HostEvent[]> {
    return this.queue.run(() => this.commit(() => ({ events: [...decide()], done: (stored) => stored })));
  }

  /**
   * Appends a team hub's decisions (R21.18, R21.19, R21.23): person and group events and hand-overs, each decided
   * at the log's head; as above.
   */
  recordTeamEvents(decide: () => readonly NewTeamEvent[]): Promise<HostEvent[]> {
    return this.queue.run(() => this.commit(() => ({ events: [...decide()], done: (stored) => stored })));
  }

  /** Appends machine events (joined, revoked), shared with remotes like device events (R17.1, R17.2); as above. */
  recordMachineEvents(decide: () => readonly (NewMachineEvent | NewAuditEvent)[]): Promise<HostEvent[]> {
    return this.queue.run(() => this.commit(() => ({ events: [...decide()], done: (stored) => stored })));
  }

  /** Appends audit entries alone: what was refused, so nothing else is written (R21.62); as above. */
  recordAuditEvents(decide: () => readonly NewAuditEvent[]): Promise<HostEvent[]> {
    return this.queue.run(() => this.commit(() => ({ events: [...decide()], done: (stored) => stored })));
  }

  /**
   * Registers a new request, or re-registers a known one (R8.1). `admitNew` is the caller's budget for new
   * interactions (a per-connection rate, R12.7): a re-announce never spends it.
   */
  announce(
    request: InteractionRequest,
    socketId: string,
    machine: MachineRef = this.localMachine,
    admitNew: () => boolean = () => true,
  ): Promise<AnnounceAck> {
    if (machine.id === LOCAL_MACHINE_ID && isReservedLocalRequestId(request.requestId)) {
      return Promise.resolve(
        failure(
          'invalid-message',
          `Request id ${request.requestId} is shaped like a joined machine's (16 hex characters and a colon); use another`,
        ),
      );
    }
    const expectedKind = interactionKindForTool(request.toolName);
    if (expectedKind !== 'permission' && expectedKind !== request.kind) {
      // R3.3: an allow/deny prompt cannot carry answers or plan feedback back.
      return Promise.resolve(
        failure(
          'invalid-message',
          `${request.toolName} must be announced as kind '${expectedKind}', not '${request.kind}'`,
        ),
      );
    }
    const key = interactionKey(machine.id, request.requestId);
    // Asked once per command: deciding again after another writer's commit must not spend the budget twice.
    let admitted: boolean | undefined;
    const admitOnce = () => (admitted ??= admitNew());
    return this.queue.run(async () => {
      await this.reopenIfLost([key]);
      return this.commit((): Decision<AnnounceAck> => {
        const known = this.projection.get(key);
        const resolution = known && this.resolutionFor(known);
        if (resolution)
          return answer({ ok: true, status: 'resolved', resolution: { ...resolution, requestId: request.requestId } });
        if (known?.status === 'withdrawn') return answer({ ok: true, status: 'withdrawn' });
        if (!known) {
          const refusal = this.refuseNew(machine, socketId, admitOnce);
          if (refusal) return answer(refusal);
        }
        this.announcedHere.add(key);
        this.routes.set(key, {
          socketId,
          protocolRequestId: request.protocolRequestId,
          runtimeRequestId: request.requestId,
          machineId: machine.id,
        });
        this.lastAnnounced.set(key, this.now().getTime());
        if (known) return answer({ ok: true, status: 'pending', autoResolution: known.autoResolution });

        const now = this.now();
        const autoResolution = autoResolutionFor(request.kind, this.projection.preferences, now);
        return {
          events: [
            {
              type: 'interaction.requested',
              at: now.toISOString(),
              interaction: toRecord(request, key, machine, this.projection.questionOwner(machine.id)),
            },
            { type: 'UserInputAutoResolutionUpdated', at: now.toISOString(), requestId: key, autoResolution },
          ],
          done: () => ({ ok: true, status: 'pending', autoResolution }),
        };
      });
    });
  }

  /**
   * Re-announces by id of requests this host accepted before (R8.1): each pending
   * one gets the entry's protocolRequestId and socket as its route and counts as
   * announced now, exactly like a full announce of a known request. Interactions
   * restored from the log after a restart are known too, so they regain a route here.
   */
  reannounce(
    batch: AnnounceBatch,
    socketId: string,
    machine: MachineRef = this.localMachine,
  ): Promise<AnnounceBatchAck> {
    // A reserved id was never accepted from the hub's agents (announce refuses it): it is nobody's here.
    const keyOf = (requestId: string) =>
      machine.id === LOCAL_MACHINE_ID && isReservedLocalRequestId(requestId)
        ? undefined
        : interactionKey(machine.id, requestId);
    return this.queue.run(async () => {
      await this.reopenIfLost(batch.entries.flatMap(({ requestId }) => keyOf(requestId) ?? []));
      const ack = {
        ok: true as const,
        resolved: [] as { requestId: string; resolution: InteractionResolution }[],
        withdrawn: [] as string[],
        unknown: [] as string[],
      };
      const now = this.now().getTime();
      for (const { requestId, protocolRequestId } of batch.entries) {
        const key = keyOf(requestId);
        const known = key === undefined ? undefined : this.projection.get(key);
        const resolution = known && this.resolutionFor(known);
        if (key === undefined || !known) ack.unknown.push(requestId);
        else if (resolution) ack.resolved.push({ requestId, resolution: { ...resolution, requestId } });
        else if (known.status === 'withdrawn') ack.withdrawn.push(requestId);
        else {
          this.announcedHere.add(key);
          this.routes.set(key, { socketId, protocolRequestId, runtimeRequestId: requestId, machineId: machine.id });
          this.lastAnnounced.set(key, now);
        }
      }
      return ack;
    });
  }

  /** Why a new interaction of `machine` on connection `socketId` cannot be taken now (R12.7, R12.17), or undefined. */
  private refuseNew(machine: MachineRef, socketId: string, admitNew: () => boolean): Failure | undefined {
    // Revoked while its connection's message waited in the queue, or through another hub process (R17.2).
    if (this.projection.machines.get(machine.id)?.revokedAt !== undefined)
      return failure('machine-revoked', `This machine ("${machine.name}") was removed from ${this.localMachine.name}`);
    // One machine cannot fill the host's memory, disk and every phone's inbox.
    const maxPending = this.options.maxPendingPerMachine ?? DEFAULT_MAX_PENDING_PER_MACHINE;
    if (this.projection.pendingCount(machine.id) >= maxPending) {
      return failure(
        'too-many-pending',
        `Too many waiting questions from this machine: ${maxPending} are waiting on ${this.localMachine.name}, ` +
          'the most it takes from one machine (askaway start --max-pending). Answer or dismiss some, then ask again.',
      );
    }
    // Nor one of its agents the machine's whole allowance: its other agents keep room (R12.17).
    const share = Math.max(1, Math.ceil(maxPending * CONNECTION_PENDING_SHARE));
    if (this.routes.countOf(socketId, (key) => this.projection.get(key)?.status === 'pending') >= share) {
      return failure(
        'too-many-pending',
        `Too many waiting questions from this agent's connection: ${share} are waiting on ${this.localMachine.name}, ` +
          `the most one connection may have of its machine's ${maxPending} (askaway start --max-pending). ` +
          'Answer or dismiss some, then ask again.',
      );
    }
    if (!admitNew()) return failure('rate-limited', 'Too many new questions at once from this connection; slow down');
    return undefined;
  }

  /** A runtime withdraws one of its own requests (the tool call was aborted). */
  withdraw(command: WithdrawCommand, machine: MachineRef = this.localMachine): Promise<SimpleAck> {
    const key = this.keyFor(machine, command.requestId);
    return this.queue.run(async (): Promise<SimpleAck> => {
      if (key === undefined || !this.projection.get(key))
        return failure('unknown-interaction', `No interaction ${command.requestId}`);
      await this.withdrawKeys([key], command.reason, command.afterAnswer === true, (view) =>
        // The agent has what its terminal chose; the log keeps it with secret answers masked (R12.13).
        command.terminalAnswer === undefined
          ? undefined
          : redactTerminalAnswerFor(terminalAnswerFor(view, command.terminalAnswer), view),
      );
      return { ok: true };
    });
  }

  /**
   * Withdraws every pending interaction of one machine (R17.2: the machine was revoked, so no
   * answer could reach it any more). Resolves with the host ids withdrawn.
   */
  withdrawMachine(machineId: string, reason: string): Promise<string[]> {
    return this.queue.run(() => {
      const keys = this.projection
        .pending()
        .filter((view) => view.machine.id === machineId)
        .map((view) => view.requestId);
      return this.withdrawKeys(keys, reason);
    });
  }

  /**
   * Withdraws every pending interaction not announced for `silentForMs`: its
   * runtime re-announces each second while it waits (R8.1), so silence means it
   * died without withdrawing (SIGKILL, a killed hook). Resolves with the withdrawn ids.
   */
  withdrawSilent(silentForMs: number, reason: string): Promise<string[]> {
    return this.queue.run(async () => {
      const now = this.now().getTime();
      const withdrawn: string[] = [];
      for (const requestId of this.lastAnnounced.keys()) {
        if (this.projection.get(requestId)?.status !== 'pending') this.lastAnnounced.delete(requestId);
      }
      // An answer whose agent went away before taking it has no more lines to log here.
      for (const requestId of this.announcedHere) {
        if (this.projection.get(requestId)?.status !== 'pending' && !this.routes.get(requestId))
          this.announcedHere.delete(requestId);
      }
      for (const view of this.projection.pending()) {
        if (this.options.sharedLog && !this.routes.get(view.requestId)) continue;
        const last = this.lastAnnounced.get(view.requestId);
        if (last === undefined) this.lastAnnounced.set(view.requestId, now);
        if (last === undefined || now - last < silentForMs) continue;
        this.lastAnnounced.delete(view.requestId);
        withdrawn.push(...(await this.withdrawKeys([view.requestId], reason)));
      }
      return withdrawn;
    });
  }

  /** Counts every pending interaction as announced now, e.g. after the host itself could not run. */
  restartSilenceClock(): void {
    const now = this.now().getTime();
    for (const view of this.projection.pending()) this.lastAnnounced.set(view.requestId, now);
    this.unroutedSince.clear();
  }

  /** On a shared log: the pending interactions whose agents are connected to this process now (R20.67). */
  routedHere(): string[] {
    return this.projection
      .pending()
      .filter((view) => this.routes.get(view.requestId) !== undefined)
      .map((view) => view.requestId);
  }

  /**
   * The leader's sweep on a shared log (R20.67): withdraws the pending interactions that no live replica has had a
   * route for during `silentForMs` (`routedAnywhere` is what the replicas said last, this one's own routes aside).
   * A replica's own sweep (R20.44) covers the questions announced to it; this one covers those whose replica died
   * and whose agents never came back elsewhere. Resolves with the withdrawn ids.
   */
  withdrawOrphans(routedAnywhere: ReadonlySet<string>, silentForMs: number, reason: string): Promise<string[]> {
    return this.queue.run(async () => {
      if (!this.leading) {
        this.unroutedSince.clear();
        return [];
      }
      const now = this.now().getTime();
      const orphans: string[] = [];
      const pending = new Set<string>();
      for (const view of this.projection.pending()) {
        pending.add(view.requestId);
        if (routedAnywhere.has(view.requestId) || this.routes.get(view.requestId)) {
          this.unroutedSince.delete(view.requestId);
          continue;
        }
        const since = this.unroutedSince.get(view.requestId);
        if (since === undefined) this.unroutedSince.set(view.requestId, now);
        else if (now - since >= silentForMs) orphans.push(view.requestId);
      }
      for (const requestId of this.unroutedSince.keys())
        if (!pending.has(requestId) || orphans.includes(requestId)) this.unroutedSince.delete(requestId);
      return orphans.length === 0 ? [] : this.withdrawKeys(orphans, reason);
    });
  }

  acknowledgeResolution(command: ResolutionAckCommand, machine: MachineRef = this.localMachine): Promise<SimpleAck> {
    const key = this.keyFor(machine, command.requestId);
    return this.queue.run(() =>
      this.commit((): Decision<SimpleAck> => {
        const view = key === undefined ? undefined : this.projection.get(key);
        if (key === undefined || !view)
          return answer(failure('unknown-interaction', `No interaction ${command.requestId}`));
        if (view.status !== 'resolved')
          return answer(failure('invalid-message', `Interaction ${command.requestId} is not resolved`));
        this.routes.delete(key);
        // The agent has it: nothing of a secret answer remains on the host (R12.13).
        this.withheld.delete(key);
        this.forgetSealed(view);
        if (view.deliveredAt !== undefined) return answer({ ok: true });
        return {
          events: [{ type: 'interaction.delivered', at: this.now().toISOString(), requestId: key }],
          done: () => ({ ok: true }),
        };
      }),
    );
  }

  /**
   * A device's answer (R10.3). `audit`, on a team hub: the answer's record goes into the answer's own commit, and
   * another person's question, refused as unknown, is recorded as a refused attempt (R21.61, R21.62).
   */
  respond(command: RespondCommand, device: Device, audit?: RespondAudit): Promise<RespondAck> {
    return this.queue.run(async () => {
      let refused: InteractionView | undefined;
      const found = this.projection.get(command.requestId);
      // The deadline is the host's word to every remote (R6.4): past it, auto-resolution came first,
      // even when a busy event loop has not run its timer yet.
      if (found?.status === 'pending' && isAutoResolutionDue(found.autoResolution, this.now())) await this.resolveDue();
      const ack = await this.commit((): Decision<RespondAck> => {
        const view = this.projection.get(command.requestId);
        // Another person's question answers exactly as one that does not exist (R21.17): nothing changes, and a
        // member learns nothing of what others' agents ask.
        if (!view || !this.projection.deviceSees(device.id, view)) {
          refused = view;
          return answer(failure('unknown-interaction', `No interaction ${command.requestId}`));
        }
        if (view.status === 'withdrawn')
          return answer(failure('withdrawn', 'The agent stopped waiting for this interaction'));
        if (view.resolution) {
          // R10.3: first valid response wins; the winning device repeating its own id is idempotent. Keyed by device
          // too: every device sees the winner's clientResponseId, and another reusing it learns who won.
          const own =
            view.resolution.clientResponseId === command.clientResponseId && view.resolution.device?.id === device.id;
          return answer({ ok: true, status: own ? 'accepted' : 'already-resolved', resolution: view.resolution });
        }
        const problem = validateResponseFor(view, command.response);
        if (problem) return answer(failure('invalid-response', problem));
        const resolution: InteractionResolution = {
          requestId: command.requestId,
          response: command.response,
          resolvedBy: 'user',
          resolvedAt: this.now().toISOString(),
          clientResponseId: command.clientResponseId,
          device,
        };
        const decision = this.resolution([resolution], (): RespondAck => ({
          ok: true,
          status: 'accepted',
          resolution,
        }));
        return audit ? { ...decision, events: [...decision.events, ...audit.answered(view, resolution)] } : decision;
      });
      if (refused && audit) await this.recordRefusal(audit.refused(refused));
      return ack;
    });
  }

  /**
   * A refusal changed nothing, so its record stands alone; the reply is the refusal's whatever happens to the
   * record (a full disk must not tell a member that another's question exists). In the queue.
   */
  private async recordRefusal(events: NewHostEvent[]): Promise<void> {
    try {
      await this.commit(() => ({ events, done: () => undefined }));
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  updatePreferences(patch: PreferencesPatch): Promise<PreferencesAck> {
    return this.queue.run(() =>
      this.commit((): Decision<PreferencesAck> => {
        const merged = PreferencesSchema.safeParse({ ...this.projection.preferences, ...patch });
        if (!merged.success) return answer(failure('invalid-message', merged.error.message));
        const preferences = merged.data;
        const current = this.projection.preferences;
        const unchanged = (Object.keys(preferences) as (keyof typeof preferences)[]).every(
          (key) => preferences[key] === current[key],
        );
        if (unchanged) return answer({ ok: true, preferences: current });

        const now = this.now();
        const at = now.toISOString();
        const events: NewHostEvent[] = [{ type: 'preferences.updated', at, preferences }];
        // R6.1: one change reaches every pending interaction of every session at once.
        for (const view of this.projection.pending()) {
          const autoResolution = nextAutoResolution(view.kind, view.autoResolution, preferences, now);
          if (autoResolution)
            events.push({ type: 'UserInputAutoResolutionUpdated', at, requestId: view.requestId, autoResolution });
        }
        return {
          events,
          done: (stored) => {
            this.tellRuntimesOfAutoResolutions(stored);
            return { ok: true, preferences };
          },
        };
      }),
    );
  }

  private fireDeadlines(): void {
    this.armedFor = undefined;
    // A failed write (disk full) must not crash the host; the next command re-arms the timer.
    this.queue.run(() => this.resolveDue()).catch((error: unknown) => this.options.onError?.(error));
  }

  /** Resolves every question whose deadline has passed as accept with `answers: {}` (R6.4). In the queue. */
  private async resolveDue(): Promise<void> {
    if (!this.leading) return;
    await this.commit((): Decision<void> => {
      const now = this.now();
      const due = this.deadlines
        .due(now.getTime())
        .filter((requestId) => this.projection.get(requestId)?.status === 'pending');
      if (due.length > 0)
        return this.resolution(
          due.map((requestId) => autoResolutionResolution(requestId, now)),
          () => undefined,
        );
      this.armTimer();
      return answer(undefined);
    });
  }

  /** The decision to resolve: the log gets secret answers masked, the agent the whole answer from memory (R12.13). */
  private resolution<T>(resolutions: InteractionResolution[], done: () => T): Decision<T> {
    const stored = resolutions.map((resolution) => {
      const view = this.projection.get(resolution.requestId);
      return view && withholdsSecret(resolution, view) ? redactResolutionForRemotes(resolution, view) : resolution;
    });
    const withheld = resolutions.filter((resolution, index) => stored[index] !== resolution);
    // Before the commit: the agent may acknowledge while it runs, and that ends the secret's stay.
    for (const resolution of withheld) this.withheld.set(resolution.requestId, resolution);
    const relay = this.options.secretRelay;
    return {
      // Sealed for the other replicas before the mask is in the log, so the agent's replica finds its box when it
      // folds the answer in (R20.47).
      ...(relay && withheld.length > 0
        ? {
            prepare: async () => {
              for (const resolution of withheld) await relay.seal(resolution);
            },
          }
        : {}),
      events: stored.map((resolution) => ({ type: 'interaction.resolved', at: resolution.resolvedAt, resolution })),
      // Not in the log (a full disk, another writer first): still pending here, so nothing is withheld.
      undo: () => {
        for (const resolution of withheld) this.withheld.delete(resolution.requestId);
      },
      // The agent waiting for the answer hears first (R13.1); remotes and the log line follow.
      first: () => {
        for (const resolution of resolutions) this.tellRuntimeResolved(resolution);
      },
      done,
    };
  }

  /** Each runtime hears of its own request by its own id (R17.4), on the socket that last announced it. */
  private tellRuntimeResolved(resolution: InteractionResolution): void {
    const route = this.routes.get(resolution.requestId);
    if (!route) return;
    this.notifier?.resolved(route.socketId, {
      requestId: route.runtimeRequestId,
      protocolRequestId: route.protocolRequestId,
      resolution: { ...resolution, requestId: route.runtimeRequestId },
    });
  }

  private tellRuntimesOfAutoResolutions(events: readonly HostEvent[]): void {
    for (const event of events) {
      if (event.type !== 'UserInputAutoResolutionUpdated') continue;
      const route = this.routes.get(event.requestId);
      if (route)
        this.notifier?.autoResolution(route.socketId, {
          requestId: route.runtimeRequestId,
          autoResolution: event.autoResolution,
        });
    }
  }

  /**
   * What another writer decided reaches the agents connected here (R20.4): an answer, and auto-resolution
   * changes. An answer whose secret only that writer's memory holds is not passed on as its mask: its whole
   * answer comes from the box that writer sealed for this replica (R20.47), or else the agent's next re-announce
   * reopens it, as after a restart (R12.13).
   */
  private tellRuntimesOfForeign(events: readonly HostEvent[]): void {
    const sealed: string[] = [];
    for (const event of events) {
      if (event.type !== 'interaction.resolved') continue;
      const view = this.projection.get(event.resolution.requestId);
      if (view?.status !== 'pending') continue;
      if (!withholdsSecret(event.resolution, view)) this.tellRuntimeResolved(event.resolution);
      else if (this.routes.get(view.requestId)) sealed.push(view.requestId);
    }
    this.tellRuntimesOfAutoResolutions(events);
    // Once these events are folded in (the queue runs it after this commit).
    if (sealed.length > 0) this.deliverSealed(sealed);
  }

  /** The resolution a runtime gets for a resolved interaction: the whole one while a secret is withheld. */
  private resolutionFor(view: InteractionView): InteractionResolution | undefined {
    if (view.status !== 'resolved' || !view.resolution) return undefined;
    return this.withheld.get(view.requestId) ?? view.resolution;
  }

  /**
   * Before a runtime is told about `keys`: an interaction whose secret answer was lost with the host's
   * memory is reopened, so its agent waits for a new answer instead of getting the mask. In the queue.
   */
  private async reopenIfLost(keys: readonly string[]): Promise<void> {
    await this.openSealed(keys);
    await this.commit(() => {
      const lost = keys.flatMap((key) => {
        const view = this.projection.get(key);
        return view && this.lostSecret(view) ? [view] : [];
      });
      return this.reopening(lost);
    });
  }

  /**
   * Takes the whole answer of each of `keys` whose secret this replica lacks from the box another replica sealed
   * for it (R20.47). One it cannot open (sealed before this process started, the database away) stays lost.
   */
  private async openSealed(keys: readonly string[]): Promise<string[]> {
    const relay = this.options.secretRelay;
    if (!relay) return [];
    const opened: string[] = [];
    for (const key of keys) {
      const view = this.projection.get(key);
      if (!view || !this.lostSecret(view)) continue;
      const whole = await relay.open(key).catch(() => undefined);
      // Read again after the wait: the answer may have been delivered or withdrawn meanwhile.
      const now = this.projection.get(key);
      if (whole && now && this.lostSecret(now)) {
        this.withheld.set(key, whole);
        opened.push(key);
      }
    }
    return opened;
  }

  /** The agents connected here get the secret answers another replica took, as soon as their boxes are open. */
  private deliverSealed(keys: readonly string[]): void {
    this.queue
      .run(async () => {
        for (const key of await this.openSealed(keys)) {
          const resolution = this.withheld.get(key);
          if (resolution) this.tellRuntimeResolved(resolution);
        }
      })
      .catch((error: unknown) => this.options.onError?.(error));
  }

  /** The agent has the answer or refused it: the boxes of a secret go from the database too. */
  private forgetSealed(view: InteractionView | undefined): void {
    const relay = this.options.secretRelay;
    if (!relay || !view?.resolution || !withholdsSecret(view.resolution, view)) return;
    relay.forget(view.requestId).catch(() => undefined);
  }

  /** At start: every secret answer not acknowledged before the host stopped is asked again (R12.13). */
  private async reopenLostSecrets(): Promise<void> {
    await this.commit(() =>
      this.reopening([...this.projection.interactions.values()].filter((view) => this.lostSecret(view))),
    );
  }

  private lostSecret(view: InteractionView): boolean {
    return (
      view.status === 'resolved' &&
      view.deliveredAt === undefined &&
      view.resolution !== undefined &&
      !this.withheld.has(view.requestId) &&
      withholdsSecret(view.resolution, view)
    );
  }

  /** Pending again with a fresh auto-resolution, as if just asked: the old deadline belonged to the lost answer. */
  private reopening(views: readonly InteractionView[]): Decision<void> {
    const now = this.now();
    const at = now.toISOString();
    return {
      events: views.flatMap((view): NewHostEvent[] => [
        { type: 'interaction.reopened', at, requestId: view.requestId },
        {
          type: 'UserInputAutoResolutionUpdated',
          at,
          requestId: view.requestId,
          autoResolution: autoResolutionFor(view.kind, this.projection.preferences, now),
        },
      ]),
      done: () => undefined,
    };
  }

  /**
   * Withdraws the pending ones among these host ids in one commit; ended ones are a harmless retry.
   * `terminalAnswerOf` gives what the agent's terminal chose for one, decided against its view. In the queue.
   */
  private withdrawKeys(
    keys: readonly string[],
    reason: string | undefined,
    afterAnswer = false,
    terminalAnswerOf: (view: InteractionView) => TerminalAnswer | undefined = () => undefined,
  ): Promise<string[]> {
    for (const key of keys) this.routes.delete(key);
    return this.commit((): Decision<string[]> => {
      const at = this.now().toISOString();
      const events: NewHostEvent[] = [];
      const withdrawn: string[] = [];
      for (const key of keys) {
        const view = this.projection.get(key);
        const refused = afterAnswer && view?.status === 'resolved';
        if (!view || (view.status !== 'pending' && !refused)) continue;
        // The agent refused the answer: its secret is nobody's to keep (R12.13).
        this.withheld.delete(key);
        if (refused) this.forgetSealed(view);
        const event: NewHostEvent = { type: 'interaction.withdrawn', at, requestId: key };
        if (reason !== undefined) event.reason = reason;
        const terminalAnswer = terminalAnswerOf(view);
        if (terminalAnswer !== undefined) event.terminalAnswer = terminalAnswer;
        if (refused) event.afterAnswer = true;
        events.push(event);
        withdrawn.push(key);
      }
      return { events, done: () => withdrawn };
    });
  }

  /** The host id of a runtime's request, or undefined for an id the hub's own agents may not use. */
  private keyFor(machine: MachineRef, runtimeRequestId: string): string | undefined {
    if (machine.id === LOCAL_MACHINE_ID && isReservedLocalRequestId(runtimeRequestId)) return undefined;
    return interactionKey(machine.id, runtimeRequestId);
  }

  /**
   * Decides against the projection at the log's head and appends on that condition (R20.2); when another
   * writer appended first, folds its events in and decides again, a bounded number of times (R20.3). Only a
   * durable append is folded in and told (R20.5). Runs inside the write queue, never beside another commit.
   */
  private async commit<T>(decide: () => Decision<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const decision = decide();
      if (decision.events.length === 0) return decision.done([]);
      let stored: HostEvent[];
      try {
        await decision.prepare?.();
        stored = await this.options.store.append(decision.events, { afterSeq: this.projection.seq });
      } catch (error) {
        decision.undo?.();
        if (!(error instanceof LogMovedError)) throw error;
        if (attempt >= MAX_DECISIONS) throw new LogContendedError(attempt, { cause: error });
        await this.foldForeign();
        continue;
      }
      this.fold(stored, decision.first);
      return decision.done(stored);
    }
  }

  /**
   * Folds in, page by page, what other writers appended after this registry's head; resolves with how many. A page
   * short of FOLD_PAGE held everything up to the head its read saw, so no read follows it (on a shared log, one
   * round trip a catch-up instead of two): what was appended since hints again (R20.40), and a commit decided on
   * this head is refused if the head moved on (R20.2).
   */
  private async foldForeign(): Promise<number> {
    let folded = 0;
    for (;;) {
      const events = await this.options.store.readSince(this.projection.seq, FOLD_PAGE);
      if (events.length === 0) return folded;
      this.fold(events, (batch) => this.tellRuntimesOfForeign(batch));
      folded += events.length;
      if (events.length < FOLD_PAGE) return folded;
    }
  }

  /**
   * Runs `first` (who is waiting on these events), which needs only the events, then folds them in and
   * tells the remotes' live streams, the other listeners and the lifecycle log, which read the projection:
   * a remote's batch says how many wait after it (R12.7), not before.
   */
  private fold(stored: HostEvent[], first?: EventListener): void {
    const expected = this.projection.seq + 1;
    if (stored[0]?.seq !== expected)
      throw new Error(`The event log skipped: expected seq ${expected}, got ${stored[0]?.seq ?? 'nothing'}`);
    if (first) this.notify([first], stored);
    const changed = stored.map((event) => {
      const view = this.projection.apply(event);
      if (view) this.syncDeadline(view.requestId);
      return view;
    });
    this.notify(this.listeners.live, stored);
    this.notify(this.listeners.other, stored);
    stored.forEach((event, index) => this.reportLifecycle(event, changed[index]));
    this.armTimer();
  }

  private notify(listeners: Iterable<EventListener>, stored: HostEvent[]): void {
    for (const listener of listeners) {
      try {
        listener(stored);
      } catch (error) {
        this.options.onError?.(error);
      }
    }
  }

  /** O(log n): re-arms only when the earliest deadline changed. */
  private armTimer(): void {
    if (!this.leading) return;
    const earliest = this.deadlines.earliest();
    if (earliest === this.armedFor) return;
    this.armedFor = earliest;
    this.timer.set(earliest);
  }

  private syncDeadline(requestId: string): void {
    const view = this.projection.get(requestId);
    if (view?.status === 'pending' && view.autoResolution.status === 'scheduled') {
      this.deadlines.set(requestId, Date.parse(view.autoResolution.deadlineAt));
    } else {
      this.deadlines.delete(requestId);
    }
  }

  /** Reports the interaction an event changed, as it stands once the whole commit is folded in. */
  private reportLifecycle(event: HostEvent, changed: InteractionView | undefined): void {
    const report = this.options.onLifecycle;
    const view = changed && this.projection.get(changed.requestId);
    if (!report || !view) return;
    if (this.options.sharedLog) {
      // Each question's lines come from the replica its agent is connected to, not once per replica (R20.48).
      if (!this.announcedHere.has(view.requestId)) return;
      if (event.type === 'interaction.withdrawn' || event.type === 'interaction.delivered')
        this.announcedHere.delete(view.requestId);
    }
    if (event.type === 'interaction.requested') report({ type: 'requested', view });
    else if (event.type === 'interaction.resolved') report({ type: 'resolved', view });
    else if (event.type === 'interaction.withdrawn') report({ type: 'withdrawn', view });
    else if (event.type === 'interaction.delivered') report({ type: 'delivered', view });
    else if (event.type === 'interaction.reopened') report({ type: 'reopened', view });
  }
}

/**
 * The durable part of a request under its host id, with the machine the connection proved
 * (R17.3): protocolRequestId is routing and stays in memory.
 */
/**
 * What the terminal chose, as far as it fits the interaction (R18.6): an answer the phone could not have
 * given (an agent's odd reply) is dropped and the withdrawal kept, so the card still leaves.
 */
function terminalAnswerFor(view: InteractionView, answer: TerminalAnswer): TerminalAnswer {
  if (answer.response === undefined || validateResponseFor(view, answer.response) === null) return answer;
  return {};
}

/** `askedFor`: whose the question is on a team hub (R21.15, R21.18), from the machine's record, never the agent's word. */
function toRecord(
  request: InteractionRequest,
  key: string,
  machine: MachineRef,
  askedFor: QuestionOwner | undefined,
): InteractionRecord {
  const { protocolRequestId: _routing, ...record } = request;
  // A runtime older than agents names none: the log still records one (R18.1), so the phone never infers it.
  const agent = request.agent ?? agentOf(request);
  return {
    ...record,
    agent,
    requestId: key,
    machine: { id: machine.id, name: machine.name },
    ...(askedFor ? { askedFor } : {}),
  } as InteractionRecord;
}

/** Each view's JSON length, measured once per view object (views are replaced, never changed). */
const sizes = new WeakMap<InteractionView, number>();
function jsonSize(view: InteractionView): number {
  let size = sizes.get(view);
  if (size === undefined) {
    size = JSON.stringify(view).length;
    sizes.set(view, size);
  }
  return size;
}

/** The runtime's own id for a host id, given the machine it belongs to. */
export function runtimeIdOf(view: { requestId: string; machine: MachineRef }): string {
  return runtimeRequestIdOf(view.machine.id, view.requestId);
}
