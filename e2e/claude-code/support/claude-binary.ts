import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type MissingBinary } from '../../support/agent-binary';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/** The Claude Code version these tests pin, shared with scripts/claude-code/install.mjs. */
export const CLAUDE_CODE_VERSION: string = (
  JSON.parse(readFileSync(path.join(ROOT, 'scripts', 'claude-code', 'pinned.json'), 'utf8')) as { version: string }
).version;

const INSTALL_HINT = 'run `node scripts/claude-code/install.mjs` (what .ci/run does) or set CLAUDE_CODE_BIN';

/** Where scripts/claude-code/install.mjs puts a version (CLAUDE_CODE_CACHE moves the cache). */
export function cachedBinary(version = CLAUDE_CODE_VERSION): string {
  const cache = process.env.CLAUDE_CODE_CACHE || path.join(ROOT, '.cache', 'claude-code');
  return path.join(path.resolve(cache), version, 'claude');
}

/**
 * The `claude` binary under test, or why there is none. CI (and ASKAWAY_CLAUDE_CODE_E2E=1) requires it,
 * so a missing binary fails the suite there instead of skipping it.
 */
export function locateClaudeBinary(): { binary: string } | MissingBinary {
  const binary = process.env.CLAUDE_CODE_BIN || cachedBinary();
  if (existsSync(binary)) return { binary };
  const required = Boolean(process.env.CI) || process.env.ASKAWAY_CLAUDE_CODE_E2E === '1';
  return { missing: `Claude Code ${CLAUDE_CODE_VERSION} is not installed at ${binary}: ${INSTALL_HINT}`, required };
}
