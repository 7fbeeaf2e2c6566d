import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: [
      'lib/**/*.test.ts',
      'bin/**/*.test.ts',
      'components/**/*.test.ts',
      'components/**/*.test.tsx',
      'tests/**/*.test.ts',
    ],
    exclude: ['node_modules/**', 'e2e/**', 'out/**', 'dist/**'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker per core minus one: a single worker on a 2-core CI machine, although
    // most tests wait on sockets and child processes rather than compute.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Each worker imports zod, socket.io and the host once for all its files instead of once per file
    // (that import was over half the suite's CPU time). Test files therefore clean up what they change
    // globally (fake timers, spies, hosts, sockets) in afterEach/afterAll, as they already do.
    isolate: false,
    globalSetup: ['lib/runtime/test-support/cli-bundle.global-setup.ts'],
  },
});
