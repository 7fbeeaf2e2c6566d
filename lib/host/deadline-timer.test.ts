import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineTimer } from './deadline-timer';

afterEach(() => {
  vi.useRealTimers();
});

describe('[R6.4] DeadlineTimer', () => {
  it('[R6.4] fires at the absolute deadline, at once for a passed one, and never after being cleared', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const fire = vi.fn();
    const timer = new DeadlineTimer(fire);
    timer.set(Date.now() + 1_500);
    vi.advanceTimersByTime(1_499);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fire).toHaveBeenCalledTimes(1);

    timer.set(Date.now() - 60_000);
    vi.advanceTimersByTime(0);
    expect(fire).toHaveBeenCalledTimes(2);

    timer.set(Date.now() + 1_000);
    timer.set(null);
    vi.advanceTimersByTime(5_000);
    expect(fire).toHaveBeenCalledTimes(2);
  });

  it('[R6.4] re-arms instead of firing early when the clock says the deadline has not come', () => {
    vi.useFakeTimers({ now: 0 });
    let clock = 0;
    const fire = vi.fn();
    const timer = new DeadlineTimer(fire, () => clock);
    timer.set(1_000);
    clock = 990; // the timer callback runs while our clock still reads before the deadline
    vi.advanceTimersByTime(1_000);
    expect(fire).not.toHaveBeenCalled();
    clock = 1_000;
    vi.advanceTimersByTime(10);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it('[R6.4] waits past the setTimeout cap for far deadlines', () => {
    vi.useFakeTimers({ now: 0 });
    const fire = vi.fn();
    const timer = new DeadlineTimer(fire);
    const farAway = 2 ** 31 + 10_000;
    timer.set(farAway);
    vi.advanceTimersByTime(2 ** 31 - 1);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(farAway);
    expect(fire).toHaveBeenCalledTimes(1);
  });
});
