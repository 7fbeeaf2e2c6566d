// One Codex home: find its daemon, attach, re-attach after a restart, never start it (R18.10, R18.14).
import { existsSync } from 'node:fs';
import { BRIDGE_SETTLED_IDS_KEPT, errorMessage } from '../../../contracts';
import { BoundedSet } from '../../bounded-set';
import { type RuntimeClient } from '../../runtime-broker';
import { type BridgeHomeStatus } from './bridge-status';
import { controlSocketPath, daemonInstanceId, processAlive, readDaemonProcess, type DaemonProcess } from './codex-home';
import { BRIDGE_CLIENT_INFO, DaemonRpc } from './daemon-rpc';
import { createFinishedTurns } from '../../finished-turns';
import { FinishedTurnRelay } from './finished-turn-relay';
import { BRIDGE_STOPPED_REASON, PromptRelay } from './prompt-relay';
import { ThreadRegistry } from './thread-registry';

/** After a connection closes, how often and how long to check whether its daemon died. */
const GONE_CHECK_MS = 100;
const GONE_CHECKS = 50;

export interface HomeLinkOptions {
  codexHome: string;
  runtime: () => RuntimeClient;
  log: (line: string) => void;
  /** How often to look for a daemon while none answers. */
  pollMs: number;
  /** Called whenever what `status()` says changes. */
  onChange: () => void;
  now?: () => number;
}

export type HomeState = Extract<BridgeHomeStatus['state'], 'waiting' | 'connecting' | 'attached'>;

/**
 * Looks for the daemon's socket every `pollMs`, and attaches when one answers: `initialize`, then joins
 * every thread (ThreadRegistry) and relays prompts (PromptRelay). When the socket closes (the daemon
 * stopped, or "Restart" restarted it and dropped every client) it goes back to looking. The daemon is never
 * started from here: it takes its environment from whoever starts it, and would hand this process's to
 * every session and hook.
 */
export class HomeLink {
  private rpc: DaemonRpc | null = null;
  private threads: ThreadRegistry | null = null;
  private daemon: DaemonProcess | null = null;
  /** The daemon process attached to last: what its cards are keyed by. */
  private instance = '';
  private readonly relay: PromptRelay;
  /** Finished turns and the phone's replies to them (R19.20). */
  private readonly turns: FinishedTurnRelay;
  private timer: NodeJS.Timeout | null = null;
  private connecting = false;
  private stopped = false;
  private paused = false;
  private lastProblem = '';
  /** Threads whose turns came back past the frame bound: their diffs are not asked for again (R12.19). */
  private readonly turnsTooBig = new BoundedSet(BRIDGE_SETTLED_IDS_KEPT);
  /** Whether the log said this daemon sent a frame the bridge refused: once per daemon process (R12.18). */
  private refusedSaid = false;
  state: HomeState = 'waiting';

  constructor(private readonly options: HomeLinkOptions) {
    this.relay = new PromptRelay({
      runtime: options.runtime,
      log: this.log,
      onChange: options.onChange,
      now: options.now,
    });
    this.turns = new FinishedTurnRelay({
      finishedTurns: createFinishedTurns({ client: options.runtime, log: this.log }),
      log: this.log,
    });
  }

  start(): void {
    this.tick();
    this.timer = setInterval(() => this.tick(), this.options.pollMs);
    this.timer.unref();
  }

  /** Stops looking and detaches; pending cards leave the phone. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.relay.stop();
    this.turns.stop(BRIDGE_STOPPED_REASON);
    this.rpc?.close();
    this.rpc = null;
  }

  /** Another bridge serves this home: stay away (true) or take over again (false). */
  setPaused(paused: boolean): void {
    if (paused === this.paused) return;
    this.paused = paused;
    if (paused) {
      this.relay.stop();
      this.turns.stop(BRIDGE_STOPPED_REASON);
      this.rpc?.close();
    }
  }

  status(): Omit<BridgeHomeStatus, 'bridgeId' | 'pid' | 'owner' | 'updatedAt'> {
    return {
      codexHome: this.options.codexHome,
      state: this.state,
      ...(this.daemon && this.state === 'attached' ? { daemonPid: this.daemon.pid } : {}),
      threads: this.threads?.joinedCount ?? 0,
      pending: this.relay.pendingCount,
      ...(this.state !== 'attached' && this.lastProblem ? { detail: this.lastProblem } : {}),
    };
  }

  private readonly log = (line: string) => this.options.log(`codex ${this.options.codexHome}: ${line}`);

  private setState(state: HomeState, problem = ''): void {
    const changed = state !== this.state || problem !== this.lastProblem;
    this.state = state;
    this.lastProblem = problem;
    if (changed) this.options.onChange();
  }

  private tick(): void {
    if (this.stopped || this.paused || this.rpc || this.connecting) return;
    const socket = controlSocketPath(this.options.codexHome);
    if (!existsSync(socket)) {
      this.setState('waiting', 'no Codex daemon runs there (a Codex TUI starts one)');
      return;
    }
    this.connecting = true;
    // Nothing on the bridge's path rejects unseen (R12.18).
    this.connect(socket)
      .catch((error: unknown) => this.log(`could not attach: ${errorMessage(error)}`))
      .finally(() => {
        this.connecting = false;
      });
  }

  private async connect(socket: string): Promise<void> {
    this.setState('connecting', this.lastProblem);
    let rpc: DaemonRpc;
    try {
      rpc = await DaemonRpc.connect(socket, {
        onRequest: (request) => this.relay.onRequest(request),
        onNotification: ({ method, params }) => {
          if (method === 'serverRequest/resolved') this.relay.onResolved(params);
          else {
            this.threads?.onNotification(method, params);
            this.turns.onNotification(method, params);
          }
        },
        onClose: (reason) => this.closed(rpc, reason),
        onRefused: (problem) => this.refused(problem),
      });
    } catch (error) {
      // A socket left behind by a killed daemon refuses connections: keep looking.
      this.setState('waiting', `the daemon's socket does not answer (${errorMessage(error)})`);
      return;
    }
    if (this.stopped || this.paused) {
      rpc.close();
      return;
    }
    try {
      await rpc.request('initialize', { clientInfo: BRIDGE_CLIENT_INFO, capabilities: { experimentalApi: true } });
      rpc.notify('initialized');
      this.daemon = await readDaemonProcess(this.options.codexHome);
      const threads = new ThreadRegistry(
        rpc,
        this.log,
        (threadId) => {
          this.options.onChange();
          // Its last turn may have ended before it could be joined: that is a card too (R19.20).
          if (threadId)
            this.turns
              .joined(threadId)
              .catch((error: unknown) =>
                this.log(`could not read the last turn of ${threadId}: ${errorMessage(error)}`),
              );
        },
        {},
        this.turnsTooBig,
      );
      this.rpc = rpc;
      this.threads = threads;
      this.instance = daemonInstanceId(this.options.codexHome, this.daemon);
      this.relay.attach(this.instance, rpc, threads);
      this.turns.attach(this.instance, rpc, threads);
      this.setState('attached');
      this.log(`attached to the Codex daemon${this.daemon ? ` (pid ${this.daemon.pid})` : ''}`);
      await threads.joinLoaded();
      this.options.onChange();
    } catch (error) {
      this.log(`could not attach: ${errorMessage(error)}`);
      rpc.close();
    }
  }

  /**
   * A frame refused unread (DaemonRpc says so once per connection): said once per daemon process, since a daemon
   * can drop the connection with an oversized frame and send a deep one on the next.
   */
  private refused(problem: string): void {
    if (this.refusedSaid) return;
    this.refusedSaid = true;
    this.log(
      `refused a message from the daemon that ${problem}; a prompt in one stays in Codex's terminal (said once for this daemon)`,
    );
  }

  private closed(rpc: DaemonRpc, reason: string): void {
    if (this.rpc !== rpc) return;
    this.rpc = null;
    this.threads = null;
    this.relay.detach();
    this.turns.detach();
    const { daemon, instance } = this;
    const gone = async () => {
      // The prompts of a daemon that is gone are lost; a daemon still running re-sends them on re-join.
      const now = await readDaemonProcess(this.options.codexHome);
      return (
        daemon === null ||
        now === null ||
        now.pid !== daemon.pid ||
        now.startedAt !== daemon.startedAt ||
        !processAlive(now.pid)
      );
    };
    if (!this.stopped && !this.paused) this.log(`detached: ${reason}`);
    this.setState('waiting', reason);
    // Look again at once: a restarted daemon is usually back within a second.
    setTimeout(() => this.tick(), 50).unref();
    // A killed process closes its sockets a moment before it is gone from the process table: look for a
    // while before deciding the daemon (and so its prompts) lives on.
    let checks = 0;
    const look = async () => {
      checks += 1;
      if (this.stopped || checks > GONE_CHECKS) return;
      const isGone = await gone();
      if (this.stopped) return;
      if (!isGone) {
        setTimeout(lookAgain, GONE_CHECK_MS).unref();
        return;
      }
      this.relay.lose(instance);
      this.turns.lose(instance);
      this.refusedSaid = false;
      this.setState(this.state, this.state === 'attached' ? '' : 'the Codex daemon stopped');
    };
    const lookAgain = () =>
      void look().catch((error: unknown) => this.log(`could not read daemon.pid: ${errorMessage(error)}`));
    setTimeout(lookAgain, GONE_CHECK_MS).unref();
  }
}
