// R9.14, R13.7: every exported page paints from its HTML alone, before any other file has arrived or run.
// - Its stylesheets are inlined. Next links them (`<link rel="stylesheet" data-precedence>`), which blocks the
//   first paint for a round trip. The link stays, `disabled` (never fetched, never applied): React and
//   Turbopack's runtime look stylesheets up by those links, and a missing one would be fetched again (and
//   hold React's commit until it loaded). Client-side navigations still load the next route's CSS as files.
// - Its chunks are requested once the page has painted, when the page is a first screen on its own: a device
//   that is not paired sees the pairing page, the unpaired inbox or the pair-again screen, all whole in the
//   HTML (lib/client/first-paint.ts). Next writes them as `<script async>` (and a preload or two): on a
//   LAN or from a warm cache they arrive while the HTML is parsed, and evaluating them (React, the router,
//   ~600 KB) came before the browser's first frame. One inline loader at the end of <head> adds them: at once
//   for a paired device, whose inbox comes from IndexedDB through that code (R9.13), else after the first
//   paint. On a slow network that paint comes a few tens of ms after the HTML, well before the chunks would
//   have arrived.
// - Its manifest and icon links are left to React, which adds them as it hydrates (they are the layout's
//   metadata, and React inserts a hoisted <link> it does not find). A page without scripts in its HTML has
//   loaded before its first frame, and the browser fetches icons and the manifest on load: Lighthouse counts
//   every request that ends before the largest paint as needed for it (R13.7). Installing reads them later.
// Runs before the CSP step, which hashes the loader like any other inline script.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const STYLESHEET = /<link rel="stylesheet" href="(\/_next\/static\/[^"]+\.css)" data-precedence="([^"]+)"\/>/g;
/** A chunk Next loads up front: `<script src="/_next/static/…" async="">` (not the nomodule polyfills). */
const CHUNK_SCRIPT = /<script src="(\/_next\/static\/[^"]+\.js)" async=""><\/script>/g;
const SCRIPT_PRELOAD =
  /<link rel="preload" as="script"(?: fetchPriority="[a-z]+")? href="(\/_next\/static\/[^"]+\.js)"\/>/g;

const LOADER_START = '(function(){var u=';
const LOADER_LIST_END = ',d=0;';
const METADATA_LINK = /<link rel="(?:manifest|icon|apple-touch-icon)" [^>]*\/>/g;

/** Each linked stylesheet's rules in a `<style>` where the link was, and the link disabled beside it. */
export async function inlineStylesheets(html, readCss) {
  let result = '';
  let from = 0;
  for (const match of html.matchAll(STYLESHEET)) {
    const [tag, href, precedence] = match;
    const css = await readCss(href);
    if (/<\/style/i.test(css)) throw new Error(`${href} holds "</style": it cannot be inlined`);
    result += html.slice(from, match.index);
    result += `<style>${css}</style><link rel="stylesheet" href="${href}" data-precedence="${precedence}" disabled=""/>`;
    from = match.index + tag.length;
  }
  return result + html.slice(from);
}

/**
 * The loader, with the chunk URLs in the order Next wrote them. A paint is the first `paint` performance
 * entry, delivered once the frame is on screen; where there is none, the frame after next. A hidden tab
 * paints nothing: it runs them at once, and nothing waits more than a second.
 */
export function loaderScript(urls) {
  return (
    `${LOADER_START}${JSON.stringify(urls)}${LOADER_LIST_END}function go(){if(d)return;d=1;` +
    `u.forEach(function(s){var e=document.createElement('script');e.src=s;e.async=true;document.head.appendChild(e)})}` +
    `if(document.documentElement.getAttribute('data-boot-device')==='paired'||document.visibilityState==='hidden'){go();return}` +
    `var P=window.PerformanceObserver,t=P&&P.supportedEntryTypes;` +
    `if(t&&t.indexOf('paint')>=0)new P(function(l,o){o.disconnect();go()}).observe({type:'paint',buffered:true});` +
    `else requestAnimationFrame(function(){requestAnimationFrame(go)});setTimeout(go,1000)})();`
  );
}

/** The chunks a page's loader adds, in order (what its first screen loads up front); [] without a loader. */
export function loaderChunks(html) {
  const start = html.indexOf(`<script>${LOADER_START}`);
  if (start < 0) return [];
  const from = start + '<script>'.length + LOADER_START.length;
  const end = html.indexOf(LOADER_LIST_END, from);
  if (end < 0) throw new Error('a chunk loader without the end of its list');
  return JSON.parse(html.slice(from, end));
}

/** The chunk scripts (and Next's preloads of them) replaced by the loader at the end of <head>; unchanged without chunks. */
export function deferChunkScripts(html) {
  const urls = [...html.matchAll(CHUNK_SCRIPT)].map((match) => match[1]);
  if (urls.length === 0) return html;
  if (!html.includes('</head>')) throw new Error('an exported page has no </head>');
  const chunks = new Set(urls);
  return html
    .replace(CHUNK_SCRIPT, '')
    .replace(METADATA_LINK, '')
    .replace(SCRIPT_PRELOAD, (tag, url) => (chunks.has(url) ? '' : tag))
    .replace('</head>', `<script>${loaderScript(urls)}</script></head>`);
}

async function htmlFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Rewrites every exported page; returns how many there were and how many stylesheets it inlined. */
export async function paintFirst(outDir) {
  const files = await htmlFiles(outDir);
  let stylesheets = 0;
  const readCss = (href) => {
    stylesheets += 1;
    return readFile(path.join(outDir, href), 'utf8');
  };
  for (const file of files) {
    const html = deferChunkScripts(await inlineStylesheets(await readFile(file, 'utf8'), readCss));
    // A stylesheet link Next writes in another form would still block the first paint: say so.
    const blocking = /<link rel="stylesheet"(?![^>]*\bdisabled="")[^>]*>/.exec(html);
    if (blocking)
      throw new Error(`${path.relative(outDir, file)}: a stylesheet left to block the first paint: ${blocking[0]}`);
    await writeFile(file, html);
  }
  return { pages: files.length, stylesheets };
}
