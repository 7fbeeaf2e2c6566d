import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/chromium';

// The agents' specs run in their own projects only (below).
const AGENT_SPECS = ['claude-code/**', 'opencode/**', 'codex/**', 'copilot/**', 'acp/**'];

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
  // Fails the run on any process a test started and left running (agents, hosts, browsers), and kills it.
  globalSetup: './e2e/support/global-setup.ts',
  // A plain `playwright test`: three on two cores. `npm test` runs the app's projects on two workers beside the
  // agents' on one, so that two agents' terminal UIs never run at once (scripts/test-all.mjs).
  workers: 3,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never', outputFolder: process.env.PW_REPORT_DIR ?? 'playwright-report' }]]
    : [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    serviceWorkers: 'block',
  },
  projects: [
    { name: 'mobile', testIgnore: AGENT_SPECS, use: { ...pixel7, browserName: 'chromium' } },
    // Wide screens differ in the card (all questions at once, keyboard) and the floating tab bar; the rest
    // (outbox, origins, security, push, PWA) is the same page at any width and runs on the phone only.
    {
      name: 'desktop',
      testMatch: ['answer.spec.ts', 'a11y.spec.ts', 'screenshots.spec.ts', 'agent-cards.spec.ts'],
      testIgnore: AGENT_SPECS,
      use: { ...desktopChrome, browserName: 'chromium', viewport: { width: 1280, height: 800 } },
    },
    // The real `claude` binary against a scripted model (e2e/claude-code/README.md); the phone is a Pixel 7.
    {
      name: 'claude-code',
      testDir: './e2e/claude-code',
      timeout: 60_000,
      use: { ...pixel7, browserName: 'chromium' },
    },
    // The real `opencode` against a scripted model (e2e/opencode/README.md): one TUI per file, shared by its tests.
    // OpenCode's own work is the slowest of the agents (a TUI, a server and a plugin per start): its longest tests
    // take 25–55 s on a 2-core CI machine, where 60 s left the last step of a five-turn test one second. The waits
    // inside are bounded by what is left of this (forAgentWork), so a passing run takes no longer for it.
    {
      name: 'opencode',
      testDir: './e2e/opencode',
      timeout: 120_000,
      use: { ...pixel7, browserName: 'chromium' },
    },
    // The real `codex` CLI (its TUI and shared daemon) against a scripted model (e2e/codex/README.md).
    {
      name: 'codex',
      testDir: './e2e/codex',
      timeout: 60_000,
      use: { ...pixel7, browserName: 'chromium' },
    },
    // The real Gemini CLI and Copilot CLI behind `askaway acp`, driven by the suite's own ACP editor (e2e/acp/).
    {
      name: 'acp',
      testDir: './e2e/acp',
      timeout: 60_000,
      use: { ...pixel7, browserName: 'chromium' },
    },
    // The real Copilot CLI through `askaway copilot` against a scripted model (docs/agents/copilot.md).
    {
      name: 'copilot',
      testDir: './e2e/copilot',
      timeout: 60_000,
      use: { ...pixel7, browserName: 'chromium' },
    },
  ],
});
