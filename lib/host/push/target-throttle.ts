import { PUSH_SUMMARY_TAG } from '../../contracts';

export interface TargetThrottleOptions {
  collapseWindowMs: number;
  rateLimitMax: number;
  rateLimitWindowMs: number;
  now: () => number;
  isPending: (requestId: string) => boolean;
  /** The target's app is open and visible right now. */
  isLooking: () => boolean;
  /** Shows one notification for these interactions; returns its tag and the interactions it stands for. */
  notify: (requestIds: readonly string[]) => { tag: string; covers: string[] } | undefined;
}

/**
 * One target's (device's or ntfy's) pacing. New interactions wait `collapseWindowMs`
 * so a subagent fan-out becomes one notification; past `rateLimitMax` per window the
 * rest waits for room and then arrives as one summary. Remembers what is on screen
 * so a resolved interaction can be taken back.
 */
export class TargetThrottle {
  private readonly queued = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private sentAt: number[] = [];
  /** Interactions with their own notification on this target. */
  private readonly shown = new Set<string>();
  /** Interactions the summary on screen stands for. */
  private summaryCovers: string[] | undefined;

  constructor(private readonly options: TargetThrottleOptions) {}

  enqueue(requestId: string): void {
    this.queued.add(requestId);
    if (!this.timer) this.schedule(this.options.collapseWindowMs);
  }

  /** Forgets ended interactions; returns the tags of notifications to close. */
  ended(requestIds: readonly string[], summaryDone: (covers: readonly string[]) => boolean): string[] {
    const tags: string[] = [];
    for (const requestId of requestIds) {
      this.queued.delete(requestId);
      if (this.shown.delete(requestId)) tags.push(requestId);
    }
    const covers = this.summaryCovers;
    if (covers && requestIds.some((id) => covers.includes(id)) && summaryDone(covers)) {
      tags.push(PUSH_SUMMARY_TAG);
      this.summaryCovers = undefined;
    }
    return tags;
  }

  /** The person is looking at the app, which clears its own notifications: nothing left to take back or send. */
  forgetShown(): void {
    this.queued.clear();
    this.shown.clear();
    this.summaryCovers = undefined;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queued.clear();
  }

  /** Numbers for tests and diagnostics. */
  state(): { queued: number; timerPending: boolean; sentInWindow: number; shown: number } {
    this.prune(this.options.now());
    return {
      queued: this.queued.size,
      timerPending: this.timer !== undefined,
      sentInWindow: this.sentAt.length,
      shown: this.shown.size,
    };
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => this.flush(), Math.max(0, delayMs));
    this.timer.unref();
  }

  private flush(): void {
    this.timer = undefined;
    const requestIds = [...this.queued].filter((id) => this.options.isPending(id));
    this.queued.clear();
    if (requestIds.length === 0 || this.options.isLooking()) return;
    const now = this.options.now();
    this.prune(now);
    const oldest = this.sentAt[0];
    if (oldest !== undefined && this.sentAt.length >= this.options.rateLimitMax) {
      for (const id of requestIds) this.queued.add(id);
      this.schedule(oldest + this.options.rateLimitWindowMs - now);
      return;
    }
    const shownNow = this.options.notify(requestIds);
    if (!shownNow) return;
    this.sentAt.push(now);
    if (shownNow.tag === PUSH_SUMMARY_TAG) this.summaryCovers = shownNow.covers;
    else for (const id of shownNow.covers) this.shown.add(id);
  }

  private prune(now: number): void {
    this.sentAt = this.sentAt.filter((at) => at > now - this.options.rateLimitWindowMs);
  }
}
