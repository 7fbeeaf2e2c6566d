import { SerialPublisher } from '../serial-publisher';
import { type PresenceTracker } from './presence';
import { type PresenceBoard } from './shared-push-state';

/**
 * Publishes this replica's looking devices on the team hub's presence board (R20.64): at once when one starts or
 * stops looking, and again every `renewEveryMs` while any looks, so its leases never run out while it does. One
 * publish at a time; changes meanwhile make one more, with the state as it is then.
 */
export class PresenceSharing {
  private timer: NodeJS.Timeout | undefined;
  private stopListening: (() => void) | undefined;
  private readonly publisher: SerialPublisher<string[]>;

  constructor(
    private readonly tracker: PresenceTracker,
    private readonly board: PresenceBoard,
    onError: (error: unknown) => void,
  ) {
    this.publisher = new SerialPublisher(
      () => tracker.visibleDevices(),
      (devices) => board.publish(devices),
      onError,
    );
  }

  start(): void {
    this.stopListening = this.tracker.onChange(() => this.publisher.soon());
    this.timer = setInterval(() => {
      if (this.tracker.visibleDevices().length > 0) this.publisher.soon();
    }, this.board.renewEveryMs);
    this.timer.unref();
  }

  /** Stops publishing. The board's owner (the host, at close) takes this replica's entries off it. */
  async stop(): Promise<void> {
    this.stopListening?.();
    clearInterval(this.timer);
    await this.publisher.stop();
  }
}
