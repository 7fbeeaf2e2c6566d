import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type MissingBinary } from '../../support/agent-binary';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/** The OpenCode version these tests pin, shared with scripts/opencode/install.mjs. */
export const OPENCODE_VERSION: string = (
  JSON.parse(readFileSync(path.join(ROOT, 'scripts', 'opencode', 'pinned.json'), 'utf8')) as { version: string }
).version;

const INSTALL_HINT = 'run `node scripts/opencode/install.mjs` (what .ci/run does) or set OPENCODE_BIN';

function cacheDir(version: string): string {
  return path.join(path.resolve(process.env.OPENCODE_CACHE || path.join(ROOT, '.cache', 'opencode')), version);
}

/** What the tests run: the binary, and the config folder with `@opencode-ai/plugin` already installed. */
export interface OpenCodeInstall {
  binary: string;
  /** Copied into each test's $XDG_CONFIG_HOME/opencode, so OpenCode does not install it at start. */
  preparedConfig: string;
}

/**
 * The `opencode` binary under test, or why there is none. CI (and ASKAWAY_OPENCODE_E2E=1) requires it,
 * so a missing binary fails the suite there instead of skipping it.
 */
export function locateOpenCode(): OpenCodeInstall | MissingBinary {
  const binary = process.env.OPENCODE_BIN || path.join(cacheDir(OPENCODE_VERSION), 'opencode');
  const preparedConfig = path.join(cacheDir(OPENCODE_VERSION), 'config');
  const required = Boolean(process.env.CI) || process.env.ASKAWAY_OPENCODE_E2E === '1';
  if (!existsSync(binary))
    return { missing: `OpenCode ${OPENCODE_VERSION} is not installed at ${binary}: ${INSTALL_HINT}`, required };
  if (!existsSync(path.join(preparedConfig, 'node_modules')))
    return { missing: `no prepared OpenCode config folder at ${preparedConfig}: ${INSTALL_HINT}`, required };
  return { binary, preparedConfig };
}
