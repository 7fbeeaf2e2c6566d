import fs from 'node:fs';
import path from 'node:path';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { contentTypeFor } from './content-types';
import { fallbackPageHtml } from './fallback-page';
import { chooseRepresentation, isPrecompressedSibling } from './precompressed';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the PWA's static export (R10.1) with clean URLs (`/history` →
 * `history.html`). Paths are decoded once, `..` segments are refused, and the
 * real path of every file must stay inside the root, so symlinks cannot escape.
 * Text files go out as their build-time `.br`/`.gz` sibling when the client accepts
 * it; the siblings are not served under their own names. Range requests get the
 * whole representation (200): the PWA's files are small and nothing needs ranges.
 */
export function createStaticHandler(staticDir: string) {
  const root = path.resolve(staticDir);

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendText(res, 405, 'Method not allowed');
    }
    const pathname = decodePath(req.url ?? '/');
    if (pathname === null) return sendText(res, 400, 'Bad request');
    if (pathname.startsWith('/_askaway/')) return sendText(res, 404, 'Not found');

    const realRoot = await realpathOrNull(root);
    if (realRoot === null || !(await isFile(path.join(realRoot, 'index.html')))) {
      if (path.extname(pathname) === '') return sendHtml(res, req, 200, fallbackPageHtml(root));
      return sendText(res, 404, 'Not found');
    }
    if (!isPrecompressedSibling(pathname)) {
      for (const candidate of candidatesFor(pathname)) {
        const file = await resolveInside(realRoot, candidate);
        if (file) return sendFile(req, res, realRoot, file, pathname);
      }
    }
    const notFound = await resolveInside(realRoot, '/404.html');
    if (notFound) return sendFile(req, res, realRoot, notFound, pathname, 404);
    return sendText(res, 404, 'Not found');
  };
}

function decodePath(url: string): string | null {
  try {
    const pathname = decodeURIComponent(new URL(url, 'http://host.invalid').pathname);
    if (pathname.includes('\0') || pathname.includes('\\')) return null;
    if (pathname.split('/').some((segment) => segment === '..' || segment === '.')) return null;
    return pathname;
  } catch {
    return null;
  }
}

function candidatesFor(pathname: string): string[] {
  if (pathname.endsWith('/'))
    return [`${pathname}index.html`, pathname === '/' ? '' : `${pathname.slice(0, -1)}.html`].filter(Boolean);
  return [pathname, `${pathname}.html`, `${pathname}/index.html`];
}

async function resolveInside(realRoot: string, candidate: string): Promise<string | null> {
  const real = await realpathOrNull(path.join(realRoot, candidate));
  if (real === null || !real.startsWith(realRoot + path.sep)) return null;
  return (await isFile(real)) ? real : null;
}

async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  realRoot: string,
  file: string,
  pathname: string,
  status = 200,
) {
  const chosen = await chooseRepresentation(realRoot, file, headerValue(req.headers['accept-encoding']));
  const { stat, encoding } = chosen;
  // Each encoding is its own representation, so it needs its own validator.
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`;
  res.setHeader('Content-Type', contentTypeFor(file));
  res.setHeader('Cache-Control', cacheControlFor(pathname));
  res.setHeader('ETag', etag);
  if (chosen.varies) res.setHeader('Vary', 'Accept-Encoding');
  if (encoding) res.setHeader('Content-Encoding', encoding);
  if (status === 200 && req.headers['if-none-match'] === etag) {
    res.writeHead(304).end();
    return;
  }
  res.setHeader('Content-Length', stat.size);
  res.writeHead(status);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = fs.createReadStream(chosen.file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

/** Hashed build assets never change; everything else must revalidate so updates reach phones. */
function cacheControlFor(pathname: string): string {
  return pathname.startsWith('/_next/static/') ? IMMUTABLE : 'no-cache';
}

function sendHtml(res: ServerResponse, req: IncomingMessage, status: number, html: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : html);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
  res.end(text);
}

async function realpathOrNull(file: string): Promise<string | null> {
  try {
    return await fs.promises.realpath(file);
  } catch {
    return null;
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(file)).isFile();
  } catch {
    return false;
  }
}
