// Bundles the CLI (bin/cli.ts and everything it imports from lib/) into dist/cli.js.
// Dependencies stay external: they are installed next to the package.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

await build({
  entryPoints: [path.join(root, 'bin', 'cli.ts')],
  outfile: path.join(root, 'dist', 'cli.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
console.log('Built dist/cli.js');
