import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './figures';
import { tempDir } from './host-process';

/** A hello-world Next page built in this run from this repo's node_modules: the baseline of the PWA figures. */
export interface HelloWorld {
  /** Its static export (index.html and _next/). */
  outDir: string;
  dispose(): void;
}

/**
 * `next build` of a one-page app with the same Next, outside the repo, sharing this repo's node_modules.
 * `served: true` also runs the PWA build's steps for serving (CSP meta and header file, .br/.gz siblings),
 * so the Askaway host serves it exactly as it serves the app.
 */
export async function buildHelloWorld(options: { served?: boolean } = {}): Promise<HelloWorld> {
  const dir = tempDir('askaway-bench-hello-');
  const dispose = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    fs.mkdirSync(path.join(dir, 'app'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'hello', private: true, type: 'module' }));
    fs.writeFileSync(
      path.join(dir, 'next.config.mjs'),
      `export default { output: 'export', turbopack: { root: ${JSON.stringify(path.parse(dir).root)} } };\n`,
    );
    fs.writeFileSync(
      path.join(dir, 'app', 'layout.jsx'),
      'export default function Layout({ children }) { return <html lang="en"><body>{children}</body></html>; }\n',
    );
    fs.writeFileSync(
      path.join(dir, 'app', 'page.jsx'),
      'export default function Page() { return <h1>Hello, world</h1>; }\n',
    );
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
      cwd: dir,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
      stdio: 'pipe',
    });
    const outDir = path.join(dir, 'out');
    if (!fs.existsSync(path.join(outDir, 'index.html')))
      throw new Error('the hello-world build wrote no out/index.html');
    if (options.served) {
      await buildStep<{ applyCsp: (dir: string) => Promise<unknown> }>('csp.mjs').then((step) => step.applyCsp(outDir));
      await buildStep<{ compressStaticFiles: (dir: string) => Promise<unknown> }>('compress.mjs').then((step) =>
        step.compressStaticFiles(outDir),
      );
    }
    return { outDir, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** One of scripts/build-pwa/*.mjs (plain JavaScript, typed here by what this file uses of it). */
async function buildStep<T>(file: string): Promise<T> {
  const exported: unknown = await import(pathToFileURL(path.join(ROOT, 'scripts', 'build-pwa', file)).href);
  return exported as T;
}
