import fs from 'node:fs';
import path from 'node:path';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { contentTypeFor } from './content-types';
import { fallbackPageHtml } from './fallback-page';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the PWA's static export (R10.1) with clean URLs (`/history` →
 * `history.html`). Paths are decoded once, `..` segments are refused, and the
 * real path of every file must stay inside the root, so symlinks cannot escape.
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
    for (const candidate of candidatesFor(pathname)) {
      const file = await resolveInside(realRoot, candidate);
      if (file) return sendFile(req, res, file, pathname);
    }
    const notFound = await resolveInside(realRoot, '/404.html');
    if (notFound) return sendFile(req, res, notFound, pathname, 404);
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
  if (pathname.endsWith('/')) return [`${pathname}index.html`, pathname === '/' ? '' : `${pathname.slice(0, -1)}.html`].filter(Boolean);
  return [pathname, `${pathname}.html`, `${pathname}/index.html`];
}

async function resolveInside(realRoot: string, candidate: string): Promise<string | null> {
  const real = await realpathOrNull(path.join(realRoot, candidate));
  if (real === null || !real.startsWith(realRoot + path.sep)) return null;
  return (await isFile(real)) ? real : null;
}

async function sendFile(req: IncomingMessage, res: ServerResponse, file: string, pathname: string, status = 200) {
  const stat = await fs.promises.stat(file);
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  res.setHeader('Content-Type', contentTypeFor(file));
  res.setHeader('Cache-Control', cacheControlFor(pathname));
  res.setHeader('ETag', etag);
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
  const stream = fs.createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
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
