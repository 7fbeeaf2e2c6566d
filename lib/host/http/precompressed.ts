import fs from 'node:fs';
import path from 'node:path';

/** What `scripts/build-pwa/compress.mjs` writes siblings for, in the server's order of preference. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.txt', '.json', '.svg', '.webmanifest']);

export type ContentEncoding = (typeof ENCODINGS)[number]['name'];

export interface Representation {
  /** The file whose bytes are sent. */
  file: string;
  stat: fs.Stats;
  encoding?: ContentEncoding;
  /** True when other clients may get other bytes for this URL (send `Vary: Accept-Encoding`). */
  varies: boolean;
}

/** A request for a sibling itself: never served as if it were an asset. */
export function isPrecompressedSibling(pathname: string): boolean {
  return ENCODINGS.some(({ suffix }) => pathname.toLowerCase().endsWith(suffix));
}

/**
 * The best precompressed sibling of `file` (a real path inside `realRoot`) that the
 * request's Accept-Encoding allows, else the file itself. A sibling must stay inside
 * the root and be at least as new as the file, so a stale one is never sent.
 */
export async function chooseRepresentation(
  realRoot: string,
  file: string,
  acceptEncoding: string | undefined,
): Promise<Representation> {
  const stat = await fs.promises.stat(file);
  if (!COMPRESSIBLE.has(path.extname(file).toLowerCase())) return { file, stat, varies: false };
  const accepted = acceptedEncodings(acceptEncoding);
  for (const { name, suffix } of ENCODINGS) {
    if (!accepted.has(name)) continue;
    const sibling = await siblingStat(realRoot, `${file}${suffix}`);
    if (sibling && sibling.stat.mtimeMs >= stat.mtimeMs)
      return { file: sibling.file, stat: sibling.stat, encoding: name, varies: true };
  }
  return { file, stat, varies: true };
}

/** Codings with q > 0 (RFC 9110 §12.5.3); `*` covers codings not named. */
export function acceptedEncodings(header: string | undefined): Set<ContentEncoding> {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    if (token === '') continue;
    const q = params.map((param) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    weights.set(token, q === undefined ? 1 : Number(q));
  }
  const accepted = new Set<ContentEncoding>();
  for (const { name } of ENCODINGS) {
    const weight = weights.get(name) ?? (name === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
    if (weight > 0) accepted.add(name);
  }
  return accepted;
}

async function siblingStat(realRoot: string, candidate: string): Promise<{ file: string; stat: fs.Stats } | null> {
  try {
    const real = await fs.promises.realpath(candidate);
    if (!real.startsWith(realRoot + path.sep)) return null;
    const stat = await fs.promises.stat(real);
    return stat.isFile() ? { file: real, stat } : null;
  } catch {
    return null;
  }
}
