// Builds out/sw.js: esbuild bundles the worker source (Workbox modules included), then
// workbox-build's injectManifest writes the precache list of the static export into it.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { injectManifest } from 'workbox-build';

/** Every file the app needs offline. `_askaway/` holds host-only files; sw.js is the worker itself. */
const GLOB_PATTERNS = ['**/*.{html,js,css,txt,json,png,svg,ico,webmanifest,woff2}'];
// The .br/.gz siblings (scripts/build-pwa/compress.mjs) are transfer encodings of listed files, not assets.
const GLOB_IGNORES = ['sw.js', 'sw.src.js', '_askaway/**', '**/*.map', '**/*.br', '**/*.gz'];

export async function buildServiceWorker({ root, outDir }) {
  const entry = path.join(root, 'lib', 'client', 'sw', 'service-worker.ts');
  const bundled = path.join(outDir, 'sw.src.js');
  const target = path.join(outDir, 'sw.js');
  await build({
    entryPoints: [entry],
    outfile: bundled,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    // Workbox strips its debug logging when it sees production.
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  try {
    const { count, size, warnings } = await injectManifest({
      swSrc: bundled,
      swDest: target,
      globDirectory: outDir,
      globPatterns: GLOB_PATTERNS,
      globIgnores: GLOB_IGNORES,
      // Content-hashed chunk names change with their content: no revision query needed.
      dontCacheBustURLsMatching: /^_next\/static\//,
      maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
    });
    for (const warning of warnings) console.warn(`[build] service worker: ${warning}`);
    return { count, size };
  } finally {
    await rm(bundled, { force: true });
  }
}
