#!/usr/bin/env node
// Runs the bundled CLI; on a fresh clone it builds first, so `npm install && npm start` just works.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli.js');
const app = path.join(root, 'out', 'index.html');

if (!existsSync(cli) || !existsSync(app)) {
  process.stderr.write('askaway: no build found, running `npm run build` first…\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0 || !existsSync(cli)) {
    process.stderr.write('askaway: the build failed; see the output above.\n');
    process.exit(result.status ?? 1);
  }
}

await import(pathToFileURL(cli).href);
