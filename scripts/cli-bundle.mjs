// The one esbuild recipe for the CLI: `npm run build` writes dist/cli.js with it, and the unit tests
// bundle the current sources the same way, so CLI tests spawn what ships instead of tsx.
import { build } from 'esbuild';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Installed with the package (package.json "dependencies"), so never bundled. */
const RUNTIME_DEPENDENCIES = ['better-sqlite3'];
/**
 * Optional native parts the bundled packages require only when asked for: ws's speed-ups, which it does
 * without, and pg's libpq binding (`pg.native`, NODE_PG_FORCE_NATIVE), which the PostgreSQL log never uses.
 */
const OPTIONAL_NATIVE = ['bufferutil', 'utf-8-validate', 'pg-native'];

const OPENCODE_PLUGIN = path.join(root, 'lib', 'runtime', 'agents', 'opencode', 'plugin.ts');

/**
 * The OpenCode plugin as one self-contained ES module (R18.20): it runs inside OpenCode (Bun), where no package
 * of ours is installed, so it may import Node's built-ins only; anything else fails the build. The CLI carries
 * the text (`askaway opencode install` writes it).
 */
export async function bundleOpenCodePlugin() {
  const result = await build({
    entryPoints: [OPENCODE_PLUGIN],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'es2022',
    packages: 'external',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((entry) => entry.path));
  const foreign = imports.filter((name) => !name.startsWith('node:'));
  if (foreign.length > 0)
    throw new Error(`the OpenCode plugin may import only node: built-ins, not ${foreign.join(', ')}`);
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild wrote no OpenCode plugin');
  return file.text;
}

/**
 * Bundles bin/cli.ts, everything it imports from lib/ and its pure-JS dependencies into `outfile`;
 * better-sqlite3 stays external (a native addon, built for the user's Node at install time).
 * Resolves with esbuild's metafile.
 */
export async function bundleCli(outfile, { sourcemap = true } = {}) {
  const plugin = await bundleOpenCodePlugin();
  const result = await build({
    define: { ASKAWAY_OPENCODE_PLUGIN_SOURCE: JSON.stringify(plugin) },
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
