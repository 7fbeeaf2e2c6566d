import { type InteractionRegistry } from './registry';

/** Runtimes re-announce every second (R8.1); five silent minutes means nobody waits any more. */
export const DEFAULT_STALE_AFTER_MS = 5 * 60_000;
export const DEFAULT_STALE_SWEEP_INTERVAL_MS = 15_000;

export interface StaleSweepOptions {
  staleAfterMs?: number;
  intervalMs?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
  /**
   * On a shared log: the pending interactions some live replica routes (R20.67). The leader then also withdraws the
   * ones nobody has routed for `staleAfterMs`.
   */
  routedAnywhere?: () => Promise<ReadonlySet<string>>;
  /** How long a question no replica routes waits before the leader withdraws it: `staleAfterMs` plus the board's lag. */
  orphansAfterMs?: number;
}

/**
 * Periodically withdraws pending interactions whose runtime stopped announcing
 * them (it died without withdrawing), so they do not stay on every phone forever.
 * Returns a function that stops the sweep.
 */
export function startStaleSweep(registry: InteractionRegistry, options: StaleSweepOptions = {}): () => void {
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_STALE_SWEEP_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const reason = staleReason(staleAfterMs);
  let lastTick = now();
  const timer = setInterval(() => {
    const tick = now();
    const gap = tick - lastTick;
    lastTick = tick;
    // The host itself did not run (laptop asleep, stalled loop): runtimes could not
    // reach it either, so their silence proves nothing. Give them a fresh grace period.
    if (gap - intervalMs >= staleAfterMs / 2) registry.restartSilenceClock();
    else {
      registry.withdrawSilent(staleAfterMs, reason).catch((error: unknown) => {
        // A failed write (disk full) must not crash the host; the next sweep retries.
        options.onError?.(error);
      });
      const { routedAnywhere } = options;
      if (routedAnywhere)
        routedAnywhere()
          .then((routed) => registry.withdrawOrphans(routed, options.orphansAfterMs ?? staleAfterMs, reason))
          .catch((error: unknown) => options.onError?.(error));
    }
  }, intervalMs);
  // The sweep must not keep a shutting-down process alive.
  timer.unref();
  return () => clearInterval(timer);
}

/** "The agent stopped waiting (no contact for 5 minutes)". */
export function staleReason(staleAfterMs: number): string {
  return `The agent stopped waiting (no contact for ${formatDuration(staleAfterMs)})`;
}

export function formatDuration(ms: number): string {
  const plural = (value: number, unit: string) => `${value} ${unit}${value === 1 ? '' : 's'}`;
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return plural(ms / 3_600_000, 'hour');
  if (ms >= 60_000) return plural(Math.round(ms / 6_000) / 10, 'minute');
  return plural(Math.round(ms / 100) / 10, 'second');
}
