/** setTimeout caps delays at 2^31-1 ms; longer waits re-arm at the cap. */
const MAX_DELAY_MS = 2_147_483_647;

/**
 * One real timer for the earliest auto-resolution deadline (R6.4). Deadlines are
 * absolute, so re-arming after a restart or a long event-loop stall still fires
 * at the right moment (or at once when it has passed).
 */
export class DeadlineTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly fire: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Arms the timer for `deadlineMs` (epoch ms), or disarms it when null. */
  set(deadlineMs: number | null): void {
    this.clear();
    if (deadlineMs === null) return;
    const delay = Math.min(MAX_DELAY_MS, Math.max(0, deadlineMs - this.now()));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.now() >= deadlineMs) this.fire();
      else this.set(deadlineMs);
    }, delay);
    // A pending deadline must not keep a shutting-down process alive.
    this.timer.unref();
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
