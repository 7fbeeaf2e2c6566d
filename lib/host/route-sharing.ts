import { type InteractionRegistry } from './registry';
import { SerialPublisher } from './serial-publisher';

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
 * One publish at a time (SerialPublisher); a failed one (the database away) is tried again at the next tick.
 */
export class RouteSharing {
  private timer: NodeJS.Timeout | undefined;
  private readonly publisher: SerialPublisher<string[]>;

  constructor(
    registry: Pick<InteractionRegistry, 'routedHere'>,
    readonly board: RouteBoard,
  ) {
    // A failed publish (the database away) says nothing here: the storage health reports it once.
    this.publisher = new SerialPublisher(
      () => registry.routedHere(),
      (requestIds) => board.publish(requestIds),
      () => undefined,
    );
  }

  start(): void {
    this.publisher.soon();
    this.timer = setInterval(() => this.publisher.soon(), this.board.renewEveryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.publisher.stop();
    await this.board.withdraw().catch(() => undefined);
  }
}
