import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g;

/** Every non-test source file under `dir`, relative to the repo. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes('test-support'));
}

/** `file`'s relative imports that land in one of `forbidden` (repo folders). */
function importsInto(file: string, forbidden: readonly string[]): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)]
    .map((match) => path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), match[1] ?? '')))
    .filter((target) => forbidden.some((folder) => target === folder || target.startsWith(`${folder}/`)))
    .map((target) => `${file} imports ${target}`);
}

describe('layers (CONTRIBUTING.md "Where things go")', () => {
  it('the hub (lib/host) depends on nothing of the runtime side: not lib/runtime, not the bridges that run it in its process', () => {
    const files = sources('lib/host');
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((file) => importsInto(file, ['lib/runtime', 'lib/bridges']))).toEqual([]);
  });

  it('the shared HTTP helpers (lib/http) and the contracts depend on neither side', () => {
    const files = [...sources('lib/http'), ...sources('lib/contracts')];
    expect(files.flatMap((file) => importsInto(file, ['lib/runtime', 'lib/host', 'lib/bridges']))).toEqual([]);
  });
});
