import { defineConfig, devices } from '@playwright/test';

// Debian Chromium (`apt-get install -y chromium`), not Playwright's download: CI reaches only npm and Debian.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const args = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

// `defaultBrowserType` cannot be set inside a project that already names its browser.
const { defaultBrowserType: _mobileBrowser, ...pixel7 } = devices['Pixel 7'];
const { defaultBrowserType: _desktopBrowser, ...desktopChrome } = devices['Desktop Chrome'];

/**
 * Every test runs against the real host (`node dist/cli.js start`), spawned by the
 * fixtures in e2e/support; run `npm run build` first. Mobile project first.
 */
export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  forbidOnly: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath, args },
    serviceWorkers: 'block',
  },
  projects: [
    { name: 'mobile', use: { ...pixel7, browserName: 'chromium' } },
    { name: 'desktop', use: { ...desktopChrome, browserName: 'chromium', viewport: { width: 1280, height: 800 } } },
  ],
});
