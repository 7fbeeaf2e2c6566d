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

export interface HelloWorldOptions {
  /** Run the PWA build's steps for serving (CSP meta and header file, .br/.gz siblings). */
  served?: boolean;
  /**
   * Also write the app's own service worker (scripts/build-pwa/service-worker.mjs: the same Workbox worker,
   * precaching this export's files). The page does not register it: whoever measures a visit does.
   */
  serviceWorker?: boolean;
}

/**
 * `next build` of a one-page app with the same Next, outside the repo, sharing this repo's node_modules.
 * With `served`, the Askaway host serves it exactly as it serves the app, in the build's order (CSP, service
 * worker, compression: the precache's revisions are of the files as served).
 */
export async function buildHelloWorld(options: HelloWorldOptions = {}): Promise<HelloWorld> {
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
    if (options.served)
      await buildStep<{ applyCsp: (dir: string) => Promise<unknown> }>('csp.mjs').then((step) => step.applyCsp(outDir));
    if (options.serviceWorker) {
      const step = await buildStep<{
        buildServiceWorker: (dirs: { root: string; outDir: string }) => Promise<unknown>;
      }>('service-worker.mjs');
      await step.buildServiceWorker({ root: ROOT, outDir });
    }
    if (options.served)
      await buildStep<{ compressStaticFiles: (dir: string) => Promise<unknown> }>('compress.mjs').then((step) =>
        step.compressStaticFiles(outDir),
      );
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
