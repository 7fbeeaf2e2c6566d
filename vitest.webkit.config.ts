import { defineConfig } from 'vitest/config';

/**
 * The WebKit smoke suite (`npm run test:webkit`): WebKitGTK's MiniBrowser under Xvfb, driven over
 * WebDriver, against the built app (`npm run build` first). One browser session for the whole file,
 * so its tests run in order.
 */
export default defineConfig({
  test: {
    include: ['e2e-webkit/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    // Generous for a shared 2-core machine: under a parallel Playwright run a test takes up to ~13 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
