/**
 * Publishes what `read` returns now, one publish at a time: a request while one runs makes one more afterwards,
 * with the state as it is then, however many came meanwhile. A failed publish is reported and the next request
 * tries again. Shared by what a team hub's replicas tell each other through the database (who looks, R20.64; which
 * agents are connected, R20.66).
 */
export class SerialPublisher<State> {
  private publishing: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly read: () => State,
    private readonly publish: (state: State) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  soon(): void {
    if (this.stopped) return;
    if (this.publishing) {
      this.again = true;
      return;
    }
    this.publishing = this.untilCurrent().finally(() => {
      this.publishing = undefined;
    });
  }

  /** Publishes no more; resolves once the publish under way, if any, is done. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.publishing;
  }

  private async untilCurrent(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.publish(this.read());
      } catch (error) {
        this.onError(error);
      }
    } while (this.again && !this.stopped);
  }
}
