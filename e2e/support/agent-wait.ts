import { test, type TestInfo } from '@playwright/test';

// A real agent's own work (its start-up, its first session, a model turn, a tool call reaching the hub) takes what
// the machine gives it: 5 s on a quiet one, 40 s beside two other suites. A wait for it is bounded by the test's
// own timeout (which covers all of it), not by a fixed 30 s inside that: a passing run waits exactly as long as
// before, a slow one is not failed while the test still has time, and a stuck one still fails with the wait's own
// message (what was pending) a little before the test's timeout would.
//
// "What is left" is what Playwright itself still allows: the time its timeout is charged with. Worker fixtures with
// a timeout of their own (an agent's shared TUI, started at the first test that asks for it) run on that timeout,
// not the test's, and Playwright sets them up after the test's automatic fixtures, so after this clock started:
// they note their time with offTestClock() and the clock leaves it out. Counted in, a TUI that took 35 s or more to
// start left the first test's wait 1 s when 20 s of its 60 had gone (question.spec.ts:11 on a loaded CI machine).

/** What a test does after an agent's work arrived (answer on the card, the model reads it): kept for it. */
const AFTER_AGENT_MS = 5_000;
/** A test run without a timeout (`--timeout=0`, debugging): waits still end. */
const WITHOUT_TIMEOUT_MS = 10 * 60_000;
/** The shortest wait, for one started late: still enough for a look or two on a loaded machine. */
const LEAST_WAIT_MS = 1_000;

/** Time this worker spent in work on a timeout of its own (worker fixtures), which the test's is not charged with. */
let offClockMs = 0;
const started = new WeakMap<TestInfo, { at: number; offClockMs: number }>();

/**
 * The automatic fixture each agent suite's `test` carries (`agentClock`): notes when the test began, so that
 * forAgentWork() knows what is left of its timeout.
 */
async function noteStart({}: object, provide: (value: undefined) => Promise<void>, testInfo: TestInfo) {
  started.set(testInfo, { at: Date.now(), offClockMs });
  await provide(undefined);
}
export const agentClock: [typeof noteStart, { auto: true }] = [noteStart, { auto: true }];

/**
 * Runs work that is not charged to the running test's timeout (a worker fixture's set-up or teardown with a
 * `timeout` of its own): forAgentWork() leaves its time out of what the test has used.
 */
export async function offTestClock<T>(work: () => Promise<T>): Promise<T> {
  const begun = Date.now();
  try {
    return await work();
  } finally {
    offClockMs += Date.now() - begun;
  }
}

/** What the running test's timeout has been charged with so far: its fixtures too, offTestClock() work not. */
function usedMs(info: TestInfo): number {
  const start = started.get(info);
  // Without the fixture (a suite whose `test` lacks agentClock) the wait is not cut short but fails loudly.
  if (!start)
    throw new Error('forAgentWork() needs the agentClock fixture in this suite’s test (e2e/support/agent-wait.ts)');
  return Date.now() - start.at - (offClockMs - start.offClockMs);
}

/**
 * How long the running test may wait for an agent's work: what is left of its timeout (test.setTimeout and
 * test.slow included), less what it does after. At least a second, so a wait started late still looks once.
 */
export function forAgentWork(afterMs = AFTER_AGENT_MS): number {
  const info = test.info();
  if (info.timeout === 0) return WITHOUT_TIMEOUT_MS;
  return Math.max(LEAST_WAIT_MS, info.timeout - usedMs(info) - afterMs);
}
