#!/usr/bin/env node
// `npm run build`: static export → paint first (inline styles, chunks after the paint) → CSP → service worker → precompressed files → CLI bundle. Offline; stops at the first error.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { compressStaticFiles } from './build-pwa/compress.mjs';
import { applyCsp } from './build-pwa/csp.mjs';
import { paintFirst } from './build-pwa/paint-first.mjs';
import { buildServiceWorker } from './build-pwa/service-worker.mjs';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'out');
process.env.NEXT_TELEMETRY_DISABLED = '1';

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: process.env });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

async function step(name, work) {
  const started = performance.now();
  const detail = await work();
  const ms = Math.round(performance.now() - started);
  console.log(`[build] ${name} done in ${ms} ms${detail ? ` (${detail})` : ''}`);
}

try {
  // A stale out/ would keep pages that no longer exist and CSP tags from the last run.
  await rm(outDir, { recursive: true, force: true });
  await step('next build (static export)', () =>
    run(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build']),
  );
  if (!existsSync(path.join(outDir, 'index.html')))
    throw new Error('next build wrote no out/index.html (is output: "export" set?)');
  await step('paint first (styles inline, chunks after the first paint)', async () => {
    const { pages, stylesheets } = await paintFirst(outDir);
    return `${pages} pages, ${stylesheets} stylesheets inlined`;
  });
  await step('content security policy', async () => {
    const { pages, hashes } = await applyCsp(outDir);
    return `${pages} pages, ${hashes} inline script hashes`;
  });
  await step('service worker', async () => {
    const { count, size } = await buildServiceWorker({ root, outDir });
    return `${count} files precached, ${Math.round(size / 1024)} KiB`;
  });
  await step('precompressed .br/.gz', async () => {
    const { files, raw, br, gz } = await compressStaticFiles(outDir);
    const kib = (bytes) => `${Math.round(bytes / 1024)} KiB`;
    return `${files} files written; ${kib(raw)} → brotli ${kib(br)}, gzip ${kib(gz)}`;
  });
  const cliBuild = path.join(root, 'scripts', 'build-cli.mjs');
  if (existsSync(cliBuild)) await step('cli bundle', () => run(process.execPath, [cliBuild]));
  else console.warn('[build] warning: scripts/build-cli.mjs does not exist yet; dist/cli.js was not built');
} catch (error) {
  console.error(`[build] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
