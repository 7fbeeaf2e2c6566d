#!/usr/bin/env node
// Draws the Askaway icons from one SVG mark and renders the PNGs with headless Chromium.
// Run once after changing the mark (`node scripts/make-icons.mjs`) and commit public/icons/*.
// The PNGs are committed so that the build stays fast and needs no browser.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from '@playwright/test';

const ACCENT = '#1d5bd6'; // the app's light-theme accent (app/styles/base.css)
const INK = '#ffffff';
const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'public', 'icons');

/** The mark: a speech bubble with a question mark, drawn on a 512 grid. */
function mark() {
  return `
    <path fill="${INK}" d="M176 112h160a72 72 0 0 1 72 72v104a72 72 0 0 1-72 72H232l-78 58a8 8 0 0 1-12.8-6.4V358A72 72 0 0 1 104 288V184a72 72 0 0 1 72-72z"/>
    <path fill="none" stroke="${ACCENT}" stroke-width="34" stroke-linecap="round" stroke-linejoin="round"
          d="M214 196a42 42 0 1 1 62 37c-13 7-20 15-20 29v6"/>
    <circle fill="${ACCENT}" cx="256" cy="314" r="20"/>`;
}

/** Rounded tile for browsers that show the icon as is ("any" purpose). */
function anySvg() {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <rect width="512" height="512" rx="112" fill="${ACCENT}"/>${mark()}
</svg>`;
}

/** Full-bleed tile with the mark inside the maskable safe zone (a circle of 40% radius). */
function maskableSvg() {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <rect width="512" height="512" fill="${ACCENT}"/>
  <g transform="translate(256 256) scale(0.72) translate(-256 -246)">${mark()}</g>
</svg>`;
}

/** iOS rounds the corners itself and shows transparency as black: square, opaque, a little padding. */
function appleSvg() {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <rect width="512" height="512" fill="${ACCENT}"/>
  <g transform="translate(256 256) scale(0.86) translate(-256 -246)">${mark()}</g>
</svg>`;
}

/** An .ico that wraps one PNG (valid since Windows Vista, read by every current browser). */
function icoFromPng(png, size) {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt8(size, 6);
  header.writeUInt8(size, 7);
  header.writeUInt8(0, 8);
  header.writeUInt8(0, 9);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, png]);
}

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  async function render(svg, size) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
    );
    return page.screenshot({ omitBackground: true, type: 'png' });
  }
  await mkdir(outDir, { recursive: true });
  const files = {
    'icon-192.png': await render(anySvg(), 192),
    'icon-512.png': await render(anySvg(), 512),
    'maskable-512.png': await render(maskableSvg(), 512),
    'apple-touch-icon.png': await render(appleSvg(), 180),
    'favicon-32.png': await render(anySvg(), 32),
    'favicon.svg': anySvg(),
  };
  for (const [name, data] of Object.entries(files)) await writeFile(path.join(outDir, name), data);
  // Browsers ask for /favicon.ico on their own; keep one at the root.
  await writeFile(path.join(root, 'public', 'favicon.ico'), icoFromPng(files['favicon-32.png'], 32));
  console.log(`icons written to ${path.relative(root, outDir)}/`);
} finally {
  await browser.close();
}
