import { type PresenceTracker } from './presence';
import { type PresenceBoard } from './shared-push-state';

/**
 * Publishes this replica's looking devices on the team hub's presence board (R20.64): at once when one starts or
 * stops looking, and again every `renewEveryMs` while any looks, so its leases never run out while it does. One
 * publish at a time; changes meanwhile make one more, with the state as it is then.
 */
export class PresenceSharing {
  private timer: NodeJS.Timeout | undefined;
  private publishing: Promise<void> | undefined;
  private again = false;
  private stopListening: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly tracker: PresenceTracker,
    private readonly board: PresenceBoard,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.stopListening = this.tracker.onChange(() => this.publishSoon());
    this.timer = setInterval(() => {
      if (this.tracker.visibleDevices().length > 0) this.publishSoon();
    }, this.board.renewEveryMs);
    this.timer.unref();
  }

  /** Stops publishing. The board's owner (the host, at close) takes this replica's entries off it. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    clearInterval(this.timer);
    await this.publishing;
  }

  private publishSoon(): void {
    if (this.stopped) return;
    if (this.publishing) {
      this.again = true;
      return;
    }
    this.publishing = this.publishUntilCurrent().finally(() => {
      this.publishing = undefined;
    });
  }

  private async publishUntilCurrent(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.board.publish(this.tracker.visibleDevices());
      } catch (error) {
        this.onError(error);
      }
    } while (this.again && !this.stopped);
  }
}
