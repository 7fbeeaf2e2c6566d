#!/usr/bin/env node
// `npm test`: every check, in stages. The checks of one stage share nothing, so they run side by side (each
// one's output is printed whole when it ends, not interleaved); a stage starts only when the one before passed.
//   1. typecheck, lint          2. unit tests, build (the e2e suites need the build)
//   3. Playwright (Chromium, the agents' real binaries)          4. the WebKit smoke suite
import { spawn } from 'node:child_process';

const STAGES = [['typecheck', 'lint'], ['test:unit', 'build'], ['test:e2e'], ['test:webkit']];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run <script>`; alone it streams its output, beside others it keeps it until it ends. */
function run(script, alone) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(npm, ['run', script], {
      stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    const chunks = [];
    child.stdout?.on('data', (chunk) => chunks.push(chunk));
    child.stderr?.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code, signal) => {
      if (!alone) process.stdout.write(Buffer.concat(chunks));
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const outcome = code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`;
      process.stdout.write(`\n── ${script}: ${outcome} in ${seconds} s\n`);
      resolve(code === 0);
    });
  });
}

for (const stage of STAGES) {
  const results = await Promise.all(stage.map((script) => run(script, stage.length === 1)));
  if (results.includes(false)) process.exit(1);
}
