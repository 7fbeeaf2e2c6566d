import { type MachineService } from './auth/machines';
import { SerialPublisher } from './serial-publisher';

/** Where a team hub's replicas say how many agents each machine has connected to them (R20.66). */
export interface MachinePresenceBoard {
  /** How often a replica renews its counts, well inside their lease. */
  readonly renewEveryMs: number;
  /** This replica's counts, replacing the ones it said before; renews their lease. */
  publish(connections: ReadonlyMap<string, number>): Promise<void>;
  /** The other live replicas' counts, summed by machine. */
  elsewhere(): Promise<Map<string, number>>;
  /** Takes this replica's counts off the board (at close). */
  withdraw(): Promise<void>;
}

/** How often a replica reads the others' counts: a phone sees an agent come or go elsewhere within this. */
export const MACHINE_PRESENCE_POLL_MS = 1_000;

/**
 * Shares this replica's agent connections with the others and takes in theirs (R20.66), so a phone shows a machine's
 * agents as connected whichever replica they and the phone are on. A change here is published at once (one publish at
 * a time; changes meanwhile make one more), renewed while any agent is connected, and the others' counts are read
 * every MACHINE_PRESENCE_POLL_MS. The database away: the last counts stand, and the next tick tries again.
 */
export class MachinePresenceSharing {
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private stopListening: (() => void) | undefined;
  private readonly publisher: SerialPublisher<ReadonlyMap<string, number>>;

  constructor(
    private readonly machines: MachineService,
    private readonly board: MachinePresenceBoard,
    onError: (error: unknown) => void,
    private readonly pollMs = MACHINE_PRESENCE_POLL_MS,
  ) {
    this.publisher = new SerialPublisher(
      () => machines.localConnections(),
      (connections) => board.publish(connections),
      onError,
    );
  }

  start(): void {
    this.stopListening = this.machines.onLocalChange(() => this.publisher.soon());
    const renew = setInterval(() => {
      if (this.machines.localConnections().size > 0) this.publisher.soon();
    }, this.board.renewEveryMs);
    const poll = setInterval(() => void this.readElsewhere(), this.pollMs);
    renew.unref();
    poll.unref();
    this.timers = [renew, poll];
    void this.readElsewhere();
  }

  /** Stops sharing and takes this replica's counts off the board. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    for (const timer of this.timers) clearInterval(timer);
    await this.publisher.stop();
    await this.board.withdraw().catch(() => undefined);
  }

  private async readElsewhere(): Promise<void> {
    try {
      const counts = await this.board.elsewhere();
      if (!this.stopped) this.machines.setElsewhere(counts);
    } catch {
      // The database away: the storage health says so once; the counts read last stand until it is back.
    }
  }
}
