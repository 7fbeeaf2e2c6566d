import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type MissingBinary } from '../../support/agent-binary';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/** The Codex version these tests pin, shared with scripts/codex/install.mjs. */
export const CODEX_VERSION: string = (
  JSON.parse(readFileSync(path.join(ROOT, 'scripts', 'codex', 'pinned.json'), 'utf8')) as { version: string }
).version;

const INSTALL_HINT = 'run `node scripts/codex/install.mjs` (what .ci/run does) or set CODEX_BIN';
const TRIPLES: Record<string, string> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

function cacheDir(): string {
  return path.resolve(process.env.CODEX_CACHE || path.join(ROOT, '.cache', 'codex'), CODEX_VERSION);
}

export interface CodexInstall {
  /** The npm wrapper (`codex`), as a person's `npm install -g @openai/codex` runs it. */
  binary: string;
  /** The native package (bin/codex, codex-resources, codex-path), hard-linked into each home's packages/; absent for CODEX_BIN. */
  vendorDir?: string;
}

/**
 * The Codex CLI under test, or why there is none. CI (and ASKAWAY_CODEX_E2E=1) requires it, so a missing
 * binary fails the suite there instead of skipping it.
 */
export function locateCodex(): CodexInstall | MissingBinary {
  const required = Boolean(process.env.CI) || process.env.ASKAWAY_CODEX_E2E === '1';
  if (process.env.CODEX_BIN) {
    return existsSync(process.env.CODEX_BIN)
      ? { binary: process.env.CODEX_BIN }
      : { missing: `CODEX_BIN=${process.env.CODEX_BIN} does not exist`, required };
  }
  const binary = path.join(cacheDir(), 'node_modules', '.bin', 'codex');
  const key = `${process.platform}-${process.arch}`;
  const vendorDir = path.join(cacheDir(), 'node_modules', '@openai', `codex-${key}`, 'vendor', TRIPLES[key] ?? key);
  if (existsSync(binary) && existsSync(path.join(vendorDir, 'bin', 'codex'))) return { binary, vendorDir };
  return { missing: `Codex ${CODEX_VERSION} is not installed at ${binary}: ${INSTALL_HINT}`, required };
}
