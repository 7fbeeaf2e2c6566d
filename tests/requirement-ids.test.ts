import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every requirement id the repo cites (R8.1 …) must be defined in docs/REQUIREMENTS.md,
// so a reader can always look it up.
const ROOT = path.resolve(import.meta.dirname, '..');
const REQUIREMENTS = 'docs/REQUIREMENTS.md';
// The whole tree (new folders included), minus generated output and dependencies.
const SKIPPED_DIRS = new Set([
  '.git',
  'node_modules',
  'out',
  'dist',
  '.next',
  'coverage',
  'test-results',
  'playwright-report',
]);
const SKIPPED_FILES = new Set(['package-lock.json']);
const TEXT_FILE = /\.(?:ts|tsx|js|mjs|cjs|md|json|css|sh|yml|yaml)$|^run$/;
const CITED_ID = /\bR\d+\.\d+\b/g;
const DEFINED_ID = /^- \*\*(R\d+\.\d+)\*\*/gm;

function filesUnder(relative: string): string[] {
  const absolute = path.join(ROOT, relative);
  if (!fs.existsSync(absolute)) return [];
  if (fs.statSync(absolute).isFile()) return [relative];
  return fs.readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
    const child = relative === '.' ? entry.name : path.join(relative, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : filesUnder(child);
    return entry.isFile() && TEXT_FILE.test(entry.name) && !SKIPPED_FILES.has(entry.name) ? [child] : [];
  });
}

/** id → the places (`file:line`) that cite it. */
function citations(): Map<string, string[]> {
  const cited = new Map<string, string[]>();
  for (const file of filesUnder('.')) {
    const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
    lines.forEach((line, index) => {
      for (const [id] of line.matchAll(CITED_ID)) {
        const places = cited.get(id) ?? [];
        places.push(`${file.split(path.sep).join('/')}:${index + 1}`);
        cited.set(id, places);
      }
    });
  }
  return cited;
}

function definedIds(): string[] {
  const text = fs.readFileSync(path.join(ROOT, REQUIREMENTS), 'utf8');
  return [...text.matchAll(DEFINED_ID)].map((match) => match[1] ?? '');
}

describe('requirement ids', () => {
  it(`every cited id is defined in ${REQUIREMENTS}`, () => {
    const defined = new Set(definedIds());
    const cited = citations();
    // Guards against a scan that silently finds nothing (moved folders, a broken pattern).
    const total = [...cited.values()].reduce((sum, places) => sum + places.length, 0);
    expect(total).toBeGreaterThan(300);
    expect(cited.size).toBeGreaterThan(50);
    expect(cited.get('R8.1')?.some((place) => place.startsWith('lib/'))).toBe(true);

    const missing = [...cited]
      .filter(([id]) => !defined.has(id))
      .map(([id, places]) => `${id} is not in ${REQUIREMENTS}; cited at ${places.join(', ')}`);
    expect(missing).toEqual([]);
  });

  it(`${REQUIREMENTS} defines each id once, in order`, () => {
    const ids = definedIds();
    expect(ids.length).toBeGreaterThan(60);
    expect(new Set(ids).size).toBe(ids.length);
    const key = (id: string) => id.slice(1).split('.').map(Number);
    const sorted = [...ids].sort((a, b) => {
      const [ga = 0, na = 0] = key(a);
      const [gb = 0, nb = 0] = key(b);
      return ga - gb || na - nb;
    });
    expect(ids).toEqual(sorted);
  });
});
