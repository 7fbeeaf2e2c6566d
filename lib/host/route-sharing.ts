import { type InteractionRegistry } from './registry';

/** Where a team hub's replicas say which pending questions have their agents connected to them (R20.67). */
export interface RouteBoard {
  readonly renewEveryMs: number;
  /** This replica's routed questions, replacing what it said before; renews their lease. */
  publish(requestIds: readonly string[]): Promise<void>;
  /** Every live replica's routed questions. */
  routedAnywhere(): Promise<Set<string>>;
  /** Takes this replica's routes off the board (at close). */
  withdraw(): Promise<void>;
}

/**
 * Publishes the questions whose agents are connected to this replica (R20.67), every `renewEveryMs`, so that the
 * leader's sweep can tell a question whose agent is alive somewhere from one whose replica and agent are both gone.
 * One publish at a time; a failed one (the database away) is tried again at the next tick.
 */
export class RouteSharing {
  private timer: NodeJS.Timeout | undefined;
  private publishing: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly registry: Pick<InteractionRegistry, 'routedHere'>,
    readonly board: RouteBoard,
  ) {}

  start(): void {
    this.publishSoon();
    this.timer = setInterval(() => this.publishSoon(), this.board.renewEveryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.publishing;
    await this.board.withdraw().catch(() => undefined);
  }

  private publishSoon(): void {
    if (this.stopped || this.publishing) return;
    this.publishing = this.board
      .publish(this.registry.routedHere())
      .catch(() => undefined)
      .finally(() => {
        this.publishing = undefined;
      });
  }
}
