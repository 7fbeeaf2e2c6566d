// The unit suite's half of the leftover check (e2e/support/global-setup.ts is Playwright's): every process a
// test spawns inherits the run's mark; whatever still runs when the suite ends is killed and fails the run.
import { describeLeftovers, markTestRun, reapLeftovers } from '../../host/test-support/leftover-processes';

export default function setup(): () => Promise<void> {
  const run = markTestRun();
  return async () => {
    const leftovers = await reapLeftovers(run);
    if (leftovers.length === 0) return;
    // Vitest reports an error thrown here but still exits 0: set the exit code as well.
    process.exitCode = 1;
    throw new Error(
      `${leftovers.length} process(es) outlived the tests that started them (now killed):\n${describeLeftovers(leftovers)}`,
    );
  };
}
