import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/** The PWA's tests: they run as the phone does, without the host's process-wide setup (its zod locale). */
const PWA_TESTS = ['lib/client/**/*.test.ts', 'lib/askUserQuestion.test.ts', 'components/**/*.test.{ts,tsx}'];

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    exclude: ['node_modules/**', 'e2e/**', 'out/**', 'dist/**'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker per core minus one: a single worker on a 2-core CI machine, although
    // most tests wait on sockets and child processes rather than compute.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['lib/**/*.test.ts', 'bin/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: [...PWA_TESTS, 'node_modules/**'],
          // Each worker imports zod, socket.io and the host once for all its files instead of once per
          // file (over half the suite's CPU time). So test files clean up what they change for the whole
          // process (fake timers, spies, hosts, sockets) in afterEach/afterAll, as they do now.
          isolate: false,
          globalSetup: [
            // First, so that its teardown (run in reverse order) removes the run's temporary dirs last.
            'lib/runtime/test-support/temp-root.global-setup.ts',
            'lib/runtime/test-support/cli-bundle.global-setup.ts',
            'lib/runtime/test-support/leftover-processes.global-setup.ts',
            // After the leftover check's setup, so its teardown (run in reverse order) stops PostgreSQL first.
            'lib/host/store/test-support/pg-cluster.global-setup.ts',
          ],
        },
      },
      { extends: true, test: { name: 'pwa', include: PWA_TESTS } },
    ],
  },
});
