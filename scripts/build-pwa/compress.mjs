// Writes precompressed siblings (`x.js.br`, `x.js.gz`) of the static export's text
// files, so the host can send a phone ~3× fewer bytes without compressing per request.
// Runs after the service worker step: sw.js is compressed too, and the precache
// manifest never lists the siblings (the browser gets the asset, decoded, either way).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.txt', '.json', '.svg', '.webmanifest']);
/** Below this, headers and the decoder cost more than the bytes saved. */
const MIN_BYTES = 1024;
/** `_askaway/` holds host-only files that are never served. */
const SKIP_DIRS = new Set(['_askaway']);

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function* textFiles(dir, base = dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(path.relative(base, file))) yield* textFiles(file, base);
    } else if (entry.isFile() && COMPRESSIBLE.has(path.extname(entry.name).toLowerCase())) {
      yield file;
    }
  }
}

async function compressOne(file) {
  const source = await readFile(file);
  if (source.length < MIN_BYTES) return { raw: 0, br: 0, gz: 0, files: 0 };
  const [br, gz] = await Promise.all([
    brotli(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    }),
    gzipAsync(source, { level: 9 }),
  ]);
  // A variant that is not smaller is not worth a Content-Encoding.
  let written = 0;
  if (br.length < source.length) {
    await writeFile(`${file}.br`, br);
    written += 1;
  }
  if (gz.length < source.length) {
    await writeFile(`${file}.gz`, gz);
    written += 1;
  }
  return {
    raw: source.length,
    br: Math.min(br.length, source.length),
    gz: Math.min(gz.length, source.length),
    files: written,
  };
}

/** Compresses every text file under `outDir`; returns counts and byte totals for the build log. */
export async function compressStaticFiles(outDir) {
  const files = [];
  for await (const file of textFiles(outDir)) files.push(file);
  const totals = { files: 0, raw: 0, br: 0, gz: 0 };
  // A few at a time: brotli 11 is CPU-bound and the build machine may have 2 cores.
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const result = await compressOne(file);
      totals.files += result.files;
      totals.raw += result.raw;
      totals.br += result.br;
      totals.gz += result.gz;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return totals;
}
