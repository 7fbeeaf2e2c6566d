// The one esbuild recipe for the CLI: `npm run build` writes dist/cli.js with it, and the unit tests
// bundle the current sources the same way, so CLI tests spawn what ships instead of tsx.
import { build } from 'esbuild';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Installed with the package (package.json "dependencies"), so never bundled. */
const RUNTIME_DEPENDENCIES = ['better-sqlite3'];
/** Optional native speed-ups that ws tries to require and does without. */
const OPTIONAL_NATIVE = ['bufferutil', 'utf-8-validate'];

/**
 * Bundles bin/cli.ts, everything it imports from lib/ and its pure-JS dependencies into `outfile`;
 * better-sqlite3 stays external (a native addon, built for the user's Node at install time).
 * Resolves with esbuild's metafile.
 */
export async function bundleCli(outfile, { sourcemap = true } = {}) {
  const result = await build({
    entryPoints: [path.join(root, 'bin', 'cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...RUNTIME_DEPENDENCIES, ...OPTIONAL_NATIVE],
    // Bundled CommonJS packages call require() for Node built-ins, which an ES module does not have.
    banner: {
      js: "import { createRequire as __askawayCreateRequire } from 'node:module';\nconst require = __askawayCreateRequire(import.meta.url);",
    },
    legalComments: 'none',
    sourcemap,
    metafile: true,
    logLevel: 'warning',
  });
  return result.metafile;
}
