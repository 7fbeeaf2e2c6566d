'use client';
import { useSyncExternalStore } from 'react';

interface Ticker {
  subscribe: (listener: () => void) => () => void;
  get: () => number;
}

// Shared tickers aligned to whole periods: every countdown on screen flips at the same
// moment, and two devices with corrected clocks flip the same digit together.
function createTicker(period: number): Ticker {
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let tick = 0;
  const schedule = () => {
    timer = setTimeout(
      () => {
        tick = Math.floor(Date.now() / period);
        for (const listener of listeners) listener();
        schedule();
      },
      period - (Date.now() % period) + 5,
    );
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      if (!timer) {
        tick = Math.floor(Date.now() / period);
        schedule();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer) {
          clearTimeout(timer);
          timer = null;
        }
      };
    },
    get: () => (timer ? tick : Math.floor(Date.now() / period)),
  };
}

const seconds = createTicker(1000);
const minutes = createTicker(60_000);

/** Local time in ms at the start of the current second (or minute), re-rendering on each. 0 while prerendering. */
export function useNow(granularity: 'second' | 'minute' = 'second'): number {
  const ticker = granularity === 'second' ? seconds : minutes;
  const tick = useSyncExternalStore(ticker.subscribe, ticker.get, () => 0);
  if (tick === 0) return 0;
  return tick * (granularity === 'second' ? 1000 : 60_000);
}
