// Marks the run, so that at its end whatever a test started and did not stop is found, killed and named:
// the run fails on it, passed or not (an agent's daemon or a host left behind slows every run after it).
import { describeLeftovers, markTestRun, reapLeftovers } from '../../lib/host/test-support/leftover-processes';

export default function globalSetup(): () => Promise<void> {
  const run = markTestRun();
  return async () => {
    const leftovers = await reapLeftovers(run);
    if (leftovers.length > 0)
      throw new Error(
        `${leftovers.length} process(es) outlived the tests that started them (now killed):\n${describeLeftovers(leftovers)}`,
      );
  };
}
