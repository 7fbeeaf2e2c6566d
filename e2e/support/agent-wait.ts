import { test, type TestInfo } from '@playwright/test';

// A real agent's own work (its start-up, its first session, a model turn, a tool call reaching the hub) takes what
// the machine gives it: 5 s on a quiet one, 40 s beside two other suites. A wait for it is bounded by the test's
// own timeout (which covers all of it), not by a fixed 30 s inside that: a passing run waits exactly as long as
// before, a slow one is not failed while the test still has time, and a stuck one still fails with the wait's own
// message (what was pending) a little before the test's timeout would.

/** What a test does after an agent's work arrived (answer on the card, the model reads it): kept for it. */
const AFTER_AGENT_MS = 5_000;
/** A test run without a timeout (`--timeout=0`, debugging): waits still end. */
const WITHOUT_TIMEOUT_MS = 10 * 60_000;

const started = new WeakMap<TestInfo, number>();

/**
 * The automatic fixture each agent suite's `test` carries (`agentClock`): notes when the test began, so that
 * forAgentWork() knows what is left of its timeout.
 */
async function noteStart({}: object, provide: (value: undefined) => Promise<void>, testInfo: TestInfo) {
  started.set(testInfo, Date.now());
  await provide(undefined);
}
export const agentClock: [typeof noteStart, { auto: true }] = [noteStart, { auto: true }];

/**
 * How long the running test may wait for an agent's work: what is left of its timeout (test.setTimeout and
 * test.slow included), less what it does after. At least a second, so a wait started late still looks once.
 */
export function forAgentWork(afterMs = AFTER_AGENT_MS): number {
  const info = test.info();
  if (info.timeout === 0) return WITHOUT_TIMEOUT_MS;
  const begun = started.get(info) ?? Date.now();
  return Math.max(1_000, info.timeout - (Date.now() - begun) - afterMs);
}
