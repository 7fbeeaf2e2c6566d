// Marks the run, so that at its end whatever a test started and did not stop is found, killed and named:
// the run fails on it, passed or not (an agent's daemon or a host left behind slows every run after it).
// Every temporary dir of the run (hosts' data dirs, agents' HOMEs, browsers' profiles, what the agents themselves
// leave in TMPDIR) is under one folder of the run's, removed once its processes are gone, as the unit suite's.
import { describeLeftovers, markTestRun, reapLeftovers } from '../../lib/host/test-support/leftover-processes';
import { makeRunTempRoot } from '../../lib/runtime/test-support/temp-root.global-setup';

export default function globalSetup(): () => Promise<void> {
  const run = markTestRun();
  const removeTempRoot = makeRunTempRoot('askaway-e2e-run-');
  return async () => {
    const leftovers = await reapLeftovers(run);
    removeTempRoot();
    if (leftovers.length > 0)
      throw new Error(
        `${leftovers.length} process(es) outlived the tests that started them (now killed):\n${describeLeftovers(leftovers)}`,
      );
  };
}
