#!/usr/bin/env node
// `npm test`: every check, each started as soon as what it needs has passed, so that the longest one (the agents'
// real binaries) starts early instead of waiting for a whole stage. What runs at once shares nothing. One check
// streams its output at a time (the first one running); the others print theirs whole when they end, not
// interleaved. The first failure stops the checks still running (their process groups get SIGINT, so Playwright
// and Vitest still stop what they started) and fails the run.
//   typecheck, lint          at once
//   build                    after the type check (which reads the .next/types an earlier build wrote) and lint
//   unit tests               after typecheck and lint, beside the build
//   agents' e2e              after the build: the agents' real binaries one at a time, the critical path
//   browser e2e              after the build and the unit tests (not beside both other suites on two cores): the
//                            app in Chromium on two workers
//   WebKit smoke             alone, last: beside both Playwright processes a WebKit IndexedDB read in the
//                            offline-open test missed its 16 s
import { spawn } from 'node:child_process';

/** Each check, with the checks that must pass before it starts. */
const CHECKS = {
  typecheck: [],
  lint: [],
  build: ['typecheck', 'lint'],
  'test:unit': ['typecheck', 'lint'],
  'test:e2e:agents': ['build'],
  'test:e2e:browser': ['build', 'test:unit'],
  'test:webkit': ['test:e2e:browser', 'test:e2e:agents'],
};
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();

const passed = new Set();
const running = new Map();
let streaming;
let failed = false;

/** Runs `npm run <script>` in a process group of its own; resolves with whether it passed. */
function run(script) {
  return new Promise((resolve) => {
    const began = Date.now();
    const streams = streaming === undefined;
    if (streams) streaming = script;
    const child = spawn(npm, ['run', script], {
      stdio: streams ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
      detached: process.platform !== 'win32',
    });
    running.set(script, child);
    const chunks = [];
    child.stdout?.on('data', (chunk) => chunks.push(chunk));
    child.stderr?.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code, signal) => {
      running.delete(script);
      if (streaming === script) streaming = undefined;
      if (!streams) process.stdout.write(Buffer.concat(chunks));
      const seconds = ((Date.now() - began) / 1000).toFixed(0);
      const at = ((Date.now() - started) / 1000).toFixed(0);
      const outcome = code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`;
      process.stdout.write(`\n── ${script}: ${outcome} in ${seconds} s (at ${at} s)\n`);
      resolve(code === 0);
    });
  });
}

/** SIGINT to every running check's process group: Playwright and Vitest tear down what they started. */
function interruptAll() {
  for (const child of running.values()) {
    try {
      if (child.pid !== undefined) process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGINT');
    } catch {
      // Already gone.
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    failed = true;
    interruptAll();
  });
}

await new Promise((done) => {
  const startReady = () => {
    if (running.size === 0 && (failed || passed.size === Object.keys(CHECKS).length)) return done();
    if (failed) return;
    for (const [script, needs] of Object.entries(CHECKS)) {
      if (passed.has(script) || running.has(script) || !needs.every((need) => passed.has(need))) continue;
      void run(script).then((ok) => {
        if (ok) passed.add(script);
        else if (!failed) {
          failed = true;
          interruptAll();
        }
        startReady();
      });
    }
  };
  startReady();
});
process.exit(failed ? 1 : 0);
