#!/usr/bin/env node
// `npm test`: every check, in stages; a stage starts only when the one before passed. The checks of a stage
// share nothing, so they run side by side: the first streams its output, the others print theirs whole when
// they end (not interleaved).
//   1. typecheck and lint (before the build: the type check reads the .next/types it writes)
//   2. the unit tests and the build (which the next stage needs)
//   3. Playwright in two processes side by side: the app in Chromium on two workers, and the agents' real
//      binaries one at a time (two agents' TUIs at once on two cores brought tests near their timeouts)
//   4. the WebKit smoke suite
import { spawn } from 'node:child_process';

const STAGES = [
  ['typecheck', 'lint'],
  ['test:unit', 'build'],
  ['test:e2e:browser', 'test:e2e:agents'],
  // Alone: beside both Playwright processes a WebKit IndexedDB read in the offline-open test missed its 16 s.
  ['test:webkit'],
];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run <script>`; `streams`: its output as it comes, else kept until it ends. */
function run(script, streams) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(npm, ['run', script], {
      stdio: streams ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    const chunks = [];
    child.stdout?.on('data', (chunk) => chunks.push(chunk));
    child.stderr?.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code, signal) => {
      if (!streams) process.stdout.write(Buffer.concat(chunks));
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const outcome = code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`;
      process.stdout.write(`\n── ${script}: ${outcome} in ${seconds} s\n`);
      resolve(code === 0);
    });
  });
}

for (const stage of STAGES) {
  const results = await Promise.all(stage.map((script, index) => run(script, index === 0)));
  if (results.includes(false)) process.exit(1);
}
