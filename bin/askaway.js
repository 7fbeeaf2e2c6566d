#!/usr/bin/env node
// Runs the bundled CLI. In a checkout with no build yet it builds first, so `npm install && npm start` just works;
// an installed package ships its build and never builds (it has neither the sources nor the build tools).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli.js');
const app = path.join(root, 'out', 'index.html');
// Only a checkout has the build script: the published package's "files" leave scripts/ out.
const isCheckout = existsSync(path.join(root, 'scripts', 'build.mjs'));

if (!existsSync(cli) || !existsSync(app)) {
  if (!isCheckout) {
    const missing = [cli, app].filter((file) => !existsSync(file)).map((file) => path.relative(root, file));
    process.stderr.write(
      `askaway: this installation is incomplete (${missing.join(', ')} missing in ${root}); reinstall it: npm install -g askaway\n`,
    );
    process.exit(1);
  }
  process.stderr.write('askaway: no build found, running `npm run build` first…\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0 || !existsSync(cli)) {
    process.stderr.write('askaway: the build failed; see the output above.\n');
    process.exit(result.status ?? 1);
  }
}

await import(pathToFileURL(cli).href);
