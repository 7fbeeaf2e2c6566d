import fs from 'node:fs';
import path from 'node:path';

/**
 * Every file under `dir` whose raw bytes hold one of `needles`, as `name: needle`: a database, its WAL and
 * shared memory, a log, a status file. Empty when none does (R12.13).
 */
export function filesHolding(dir: string, needles: readonly string[]): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const bytes = fs.readFileSync(path.join(entry.parentPath, entry.name));
    for (const needle of needles) if (bytes.includes(Buffer.from(needle))) found.push(`${entry.name}: ${needle}`);
  }
  return found;
}
