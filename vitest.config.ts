import { defineConfig } from 'vitest/config';
import path from 'node:path';

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
    globalSetup: ['lib/runtime/test-support/cli-bundle.global-setup.ts'],
  },
});
