import fs from 'node:fs';
import path from 'node:path';
import { type TestProject } from 'vitest/node';
import { bundleCli, bundleOpenCodePlugin } from '../../../scripts/cli-bundle.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The CLI bundled from the current sources, for tests that run `askaway` as a real process. */
    askawayCli: string;
    /** The OpenCode plugin bundled from the current sources, as the CLI carries it. */
    openCodePlugin: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * Bundles bin/cli.ts once per run, as `npm run build` does, so CLI tests spawn plain `node` (a few
 * tenths of a second a process) instead of compiling every source file through tsx (about 2 s). It
 * lives under node_modules so better-sqlite3, the one external dependency, resolves as it does for
 * dist/cli.js; as .mjs because no package.json there says "module". Watch mode rebuilds it per rerun.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const cache = path.join(ROOT, 'node_modules', '.cache', 'askaway');
  fs.mkdirSync(cache, { recursive: true });
  const dir = fs.mkdtempSync(path.join(cache, 'cli-'));
  const outfile = path.join(dir, 'cli.mjs');
  const build = async () => {
    await bundleCli(outfile, { sourcemap: false });
    project.provide('openCodePlugin', await bundleOpenCodePlugin());
  };
  await build();
  project.provide('askawayCli', outfile);
  project.onTestsRerun(build);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
