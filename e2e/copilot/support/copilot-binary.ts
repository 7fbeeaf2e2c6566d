import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type MissingBinary } from '../../support/agent-binary';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/** The Copilot CLI version these tests pin, shared with scripts/copilot/install.mjs. */
export const COPILOT_VERSION: string = (
  JSON.parse(readFileSync(path.join(ROOT, 'scripts', 'copilot', 'pinned.json'), 'utf8')) as { version: string }
).version;

const INSTALL_HINT = 'run `node scripts/copilot/install.mjs` (what .ci/run does) or set COPILOT_BIN';

export function cacheRoot(): string {
  return path.resolve(process.env.COPILOT_CACHE || path.join(ROOT, '.cache', 'copilot'));
}

export interface CopilotInstall {
  binary: string;
  /** $XDG_CACHE_HOME with the unpacked package, shared by every test (235 MB, unpacked once). */
  xdgCache: string;
}

/** The native `copilot` under test, or why there is none; CI (and ASKAWAY_COPILOT_E2E=1) requires it. */
export function locateCopilot(): CopilotInstall | MissingBinary {
  const platform = `${process.platform}-${process.arch}`;
  const binary =
    process.env.COPILOT_BIN ||
    path.join(cacheRoot(), COPILOT_VERSION, 'node_modules', '@github', `copilot-${platform}`, 'copilot');
  const required = Boolean(process.env.CI) || process.env.ASKAWAY_COPILOT_E2E === '1';
  if (!existsSync(binary))
    return { missing: `Copilot CLI ${COPILOT_VERSION} is not installed at ${binary}: ${INSTALL_HINT}`, required };
  return { binary, xdgCache: path.join(cacheRoot(), 'xdg') };
}
