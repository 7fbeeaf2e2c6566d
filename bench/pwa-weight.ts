// R13.4: first-screen JavaScript and CSS per route (what each exported page's HTML
// references, not lazy chunks), raw and gzip, beside a hello-world page built with
// the same Next in the same run; checks every route against the budget and flags
// dependencies that should load lazily.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { loaderChunks } from '../scripts/build-pwa/paint-first.mjs';
import { figure, ROOT, type Figure } from './support/figures';
import { buildHelloWorld } from './support/hello-world';
import { isMain, runAlone } from './support/main-guard';

const OUT = path.join(ROOT, 'out');
/** Every route's first screen, JS + CSS, gzip (R13.4): 200 KiB with at least 10 KiB to spare. */
export const FIRST_SCREEN_BUDGET_GZIP = 190 * 1024;

/** Text that survives minification in each library's bundle, and whether a first screen should carry it. */
const MARKERS: { name: string; pattern: RegExp; lazy: boolean }[] = [
  { name: 'dompurify', pattern: /ALLOWED_TAGS/, lazy: true },
  { name: 'marked', pattern: /walkTokens/, lazy: true },
  { name: 'qrcode', pattern: /No input text|stored in a QR Code/, lazy: true },
  { name: 'zod', pattern: /\$ZodError|_zod\.def/, lazy: true },
  { name: 'socket.io-client', pattern: /engine\.io|EIO=/, lazy: true },
  { name: 'workbox-window', pattern: /SKIP_WAITING/, lazy: true },
  { name: 'Chinese strings', pattern: /正在连接/, lazy: true },
];

export interface RouteWeight {
  route: string;
  js: { raw: number; gzip: number; files: string[] };
  css: { raw: number; gzip: number; files: string[] };
  /** gzip of the `nomodule` scripts among `js` (polyfills a browser with ES modules never downloads). */
  noModuleGzip: number;
  libraries: string[];
}

/**
 * Script and stylesheet URLs an exported HTML page loads up front (`nomodule` scripts listed apart too): its
 * script tags and the chunks its loader adds (scripts/build-pwa/paint-first.mjs), and its stylesheets, linked or
 * inlined (an inlined one keeps its link, disabled: the same bytes, in the HTML).
 */
function referencedAssets(html: string): { js: string[]; css: string[]; noModule: string[] } {
  const js = new Set<string>(loaderChunks(html));
  const css = new Set<string>();
  const noModule: string[] = [];
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g)) {
    if (!match[1]) continue;
    js.add(match[1]);
    if (/\bnomodule\b/i.test(match[0])) noModule.push(match[1]);
  }
  for (const match of html.matchAll(/<link\b[^>]*>/g)) {
    const tag = match[0];
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (!href) continue;
    if (/\brel="stylesheet"/.test(tag)) css.add(href);
    else if (/\brel="(preload|modulepreload)"/.test(tag) && /\bas="script"/.test(tag)) js.add(href);
  }
  return { js: [...js], css: [...css], noModule };
}

function weigh(outDir: string, urls: string[]): { raw: number; gzip: number; files: string[]; text: string } {
  let raw = 0;
  let gzip = 0;
  let text = '';
  const files: string[] = [];
  for (const url of urls) {
    const file = path.join(outDir, decodeURIComponent(url.split('?')[0] ?? url));
    if (!fs.existsSync(file)) continue;
    const content = fs.readFileSync(file);
    raw += content.length;
    gzip += gzipSync(content).length;
    text += content.toString('utf8');
    files.push(url);
  }
  return { raw, gzip, files, text };
}

export function routeWeights(outDir: string): RouteWeight[] {
  const pages = fs
    .readdirSync(outDir)
    .filter((name) => name.endsWith('.html') && !name.startsWith('_') && name !== '404.html')
    .sort((a, b) => (a === 'index.html' ? -1 : b === 'index.html' ? 1 : a.localeCompare(b)));
  return pages.map((page) => {
    const assets = referencedAssets(fs.readFileSync(path.join(outDir, page), 'utf8'));
    const js = weigh(outDir, assets.js);
    const css = weigh(outDir, assets.css);
    return {
      route: page === 'index.html' ? '/' : `/${page.replace(/\.html$/, '')}`,
      js: { raw: js.raw, gzip: js.gzip, files: js.files },
      css: { raw: css.raw, gzip: css.gzip, files: css.files },
      noModuleGzip: weigh(outDir, assets.noModule).gzip,
      libraries: MARKERS.filter((marker) => marker.pattern.test(js.text)).map((marker) => marker.name),
    };
  });
}

/** What one import costs when bundled alone (esbuild, minified, browser): to see who weighs what. */
async function standaloneGzip(source: string): Promise<number> {
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    minify: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    logLevel: 'silent',
  });
  return gzipSync(Buffer.concat(result.outputFiles.map((file) => Buffer.from(file.contents)))).length;
}

const STANDALONE: { name: string; source: string }[] = [
  { name: 'zod + lib/contracts', source: "export * from './lib/contracts';" },
  { name: 'socket.io-client', source: "export { io } from 'socket.io-client';" },
  { name: 'workbox-window', source: "export { Workbox } from 'workbox-window';" },
];

export async function runPwaWeight(): Promise<{ figures: Figure[] }> {
  if (!fs.existsSync(path.join(OUT, 'index.html')))
    throw new Error('out/index.html is missing: run npm run build first');
  const routes = routeWeights(OUT);
  const helloWorld = await buildHelloWorld();
  let hello: RouteWeight | undefined;
  try {
    hello = routeWeights(helloWorld.outDir).find((route) => route.route === '/');
  } finally {
    helloWorld.dispose();
  }
  if (!hello) throw new Error('the hello-world build wrote no out/index.html');
  const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
  const figures: Figure[] = [];
  for (const route of routes) {
    const flagged = route.libraries.filter((name) => MARKERS.find((marker) => marker.name === name)?.lazy);
    const isInbox = route.route === '/';
    figures.push(
      figure({
        name: `PWA ${route.route}: first-screen JS+CSS gzip${isInbox ? ' (R13.4)' : ''}`,
        value: kib(route.js.gzip + route.css.gzip),
        unit: 'KiB',
        baseline: kib(hello.js.gzip + hello.css.gzip),
        budget: kib(FIRST_SCREEN_BUDGET_GZIP),
        note:
          `JS ${kib(route.js.raw)} KiB raw / ${kib(route.js.gzip)} KiB gzip in ${route.js.files.length} files ` +
          `(of which ${kib(route.noModuleGzip)} KiB nomodule polyfills, which browsers with ES modules skip: ` +
          `${kib(route.js.gzip + route.css.gzip - route.noModuleGzip)} KiB for them, hello world ` +
          `${kib(hello.js.gzip + hello.css.gzip - hello.noModuleGzip)} KiB); ` +
          `CSS ${kib(route.css.raw)} KiB raw / ${kib(route.css.gzip)} KiB gzip; libraries: ${route.libraries.join(', ') || 'none detected'}` +
          (flagged.length > 0 ? `; SHOULD BE LAZY: ${flagged.join(', ')}` : '') +
          '; baseline: hello-world page, same Next, same run',
      }),
      figure({
        name: `PWA ${route.route}: first-screen JS raw`,
        value: kib(route.js.raw),
        unit: 'KiB',
        baseline: kib(hello.js.raw),
      }),
    );
  }
  for (const entry of STANDALONE) {
    figures.push(
      figure({
        name: `PWA library alone: ${entry.name}`,
        value: kib(await standaloneGzip(entry.source)),
        unit: 'KiB',
        note: 'gzip of the import bundled alone with esbuild (minified); an estimate of its share of the first screen',
      }),
    );
  }
  const heaviest = routes.reduce((max, route) =>
    route.js.gzip + route.css.gzip > max.js.gzip + max.css.gzip ? route : max,
  );
  const over = routes.filter((route) => route.js.gzip + route.css.gzip > FIRST_SCREEN_BUDGET_GZIP);
  console.log(
    `[pwa-weight] first screen ≤ ${kib(FIRST_SCREEN_BUDGET_GZIP)} KiB gzip on every route: ` +
      (over.length === 0 ? 'holds' : `OVER on ${over.map((route) => route.route).join(', ')}`) +
      ` (heaviest ${heaviest.route}: ${kib(heaviest.js.gzip + heaviest.css.gzip)} KiB)`,
  );
  return { figures };
}

if (isMain(import.meta.url)) await runAlone('pwa-weight', runPwaWeight);
