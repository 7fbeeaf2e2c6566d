export type TimerHandle = ReturnType<typeof setTimeout>;

/** Time as the connection sees it; tests pass one driven by fake timers. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock. Reads the globals on each call, so vitest's fake timers apply too. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle),
};
