import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type MissingBinary } from '../../support/agent-binary';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/** The Gemini CLI version these tests pin, shared with scripts/gemini/install.mjs. */
export const GEMINI_VERSION: string = (
  JSON.parse(readFileSync(path.join(ROOT, 'scripts', 'gemini', 'pinned.json'), 'utf8')) as { version: string }
).version;

/** The `gemini` under test, or why there is none: CI requires it, so a missing binary fails there, not skips. */
export function locateGemini(): { binary: string } | MissingBinary {
  const cache = path.resolve(process.env.GEMINI_CACHE || path.join(ROOT, '.cache', 'gemini'));
  const binary = process.env.GEMINI_BIN || path.join(cache, GEMINI_VERSION, 'node_modules', '.bin', 'gemini');
  const required = Boolean(process.env.CI) || process.env.ASKAWAY_ACP_E2E === '1';
  if (!existsSync(binary))
    return {
      missing: `Gemini CLI ${GEMINI_VERSION} is not installed at ${binary}: run \`node scripts/gemini/install.mjs\` (what .ci/run does) or set GEMINI_BIN`,
      required,
    };
  return { binary };
}
