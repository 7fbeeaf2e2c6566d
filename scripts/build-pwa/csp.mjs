// Content-Security-Policy for the static export (R12.2).
// Scripts: only files from the app's origin plus the exact inline scripts Next wrote into the
// exported HTML, allowed by their sha256 hashes (no nonces: a static export has no server to mint them).
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where the host finds the header value (lib/host serves it with every page). */
export const CSP_HEADER_FILE = path.join('_askaway', 'csp-header.txt');

/**
 * Directives besides script-src. Why each source is there:
 * - style-src 'unsafe-inline': React writes `style` attributes, Next's error pages ship
 *   `<style>` blocks, and the sandboxed preview iframe (srcdoc inherits this policy) must be able
 *   to show the styles of an HTML preview. CSS cannot run script, and every fetch it could make is
 *   limited by img-src / font-src below.
 * - connect-src http: https: ws: wss:: the remote may be paired to a host on another origin
 *   (Settings → host URL, `/pair#host=`), which a static policy cannot name in advance. Exfiltration
 *   needs running script first, and script-src allows none but ours.
 * - frame-src 'none': the only frame is the preview, an `<iframe sandbox srcdoc>`. A srcdoc
 *   document is not fetched, so frame-src does not apply to it (checked in e2e/pwa-install.spec.ts);
 *   it inherits this whole policy and adds its own meta policy that blocks every load.
 */
export const BASE_DIRECTIVES = [
  ['default-src', "'self'"],
  ['style-src', "'self'", "'unsafe-inline'"],
  ['img-src', "'self'", 'data:'],
  ['font-src', "'self'"],
  ['connect-src', "'self'", 'http:', 'https:', 'ws:', 'wss:'],
  ['frame-src', "'none'"],
  ['worker-src', "'self'"],
  ['manifest-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
];

/** Directives a `<meta>` policy may not carry; they go in the HTTP header only. */
const HEADER_ONLY = [['frame-ancestors', "'none'"]];

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/** sha256 sources of every inline script (a script element without `src`) in one HTML document. */
export function inlineScriptHashes(html) {
  const hashes = new Set();
  for (const [, attributes, body] of html.matchAll(INLINE_SCRIPT)) {
    if (/\ssrc\s*=/i.test(` ${attributes}`)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(` ${attributes}`)?.[1]?.toLowerCase();
    // Data blocks (JSON-LD, import maps aside) are not executed and need no hash.
    if (type && type !== 'module' && type !== 'text/javascript' && type !== 'application/javascript') continue;
    hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...hashes].sort();
}

export function serializePolicy(directives) {
  return directives.map((parts) => parts.join(' ')).join('; ');
}

export function policyFor(hashes, { header }) {
  const script = ['script-src', "'self'", ...hashes];
  return serializePolicy([...BASE_DIRECTIVES, script, ...(header ? HEADER_ONLY : [])]);
}

const META_MARKER = 'http-equiv="Content-Security-Policy"';

/** Puts the meta policy first in <head> (after the charset), before any script can run. */
export function injectMeta(html, policy) {
  if (html.includes(META_MARKER)) throw new Error('HTML already has a CSP meta tag (build ran twice over out/?)');
  const meta = `<meta ${META_MARKER} content="${policy.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"/>`;
  const charset = /<meta charSet="utf-8"\s*\/?>/i.exec(html);
  if (charset) {
    const end = charset.index + charset[0].length;
    return html.slice(0, end) + meta + html.slice(end);
  }
  const head = /<head[^>]*>/i.exec(html);
  if (!head) throw new Error('exported HTML has no <head>');
  const end = head.index + head[0].length;
  return html.slice(0, end) + meta + html.slice(end);
}

async function htmlFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * Adds a meta policy to every exported page (only that page's script hashes) and writes the
 * header policy (every page's hashes, plus frame-ancestors) for the host.
 */
export async function applyCsp(outDir) {
  const files = await htmlFiles(outDir);
  if (files.length === 0) throw new Error(`no HTML files in ${outDir}: did next build export?`);
  const all = new Set();
  for (const file of files) {
    const html = await readFile(file, 'utf8');
    const hashes = inlineScriptHashes(html);
    for (const hash of hashes) all.add(hash);
    await writeFile(file, injectMeta(html, policyFor(hashes, { header: false })));
  }
  const header = policyFor([...all].sort(), { header: true });
  const headerFile = path.join(outDir, CSP_HEADER_FILE);
  await mkdir(path.dirname(headerFile), { recursive: true });
  // No trailing newline: the host sends the file's text as a header value.
  await writeFile(headerFile, header);
  return { pages: files.length, hashes: all.size, header };
}
