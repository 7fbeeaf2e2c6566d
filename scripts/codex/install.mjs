#!/usr/bin/env node
// Installs the pinned Codex CLI into a cache folder for the e2e tests only, never as a project dependency
// (.ci/run calls it). The npm package @openai/codex is a 2 kB Node wrapper (bin/codex.js) whose native
// binary is the optional platform package (@openai/codex-linux-x64 is npm:@openai/codex@<v>-linux-x64):
// a 172 MB download, 424 MB unpacked. Idempotent: an installed version that answers --version is kept.
//   node scripts/codex/install.mjs            # the pinned version (scripts/codex/pinned.json)
//   node scripts/codex/install.mjs 0.171.0    # another version
// CODEX_CACHE moves the cache (default: .cache/codex in the checkout). Prints the wrapper's path.
// The wrapper is kept (not only the native binary): it sets CODEX_MANAGED_PACKAGE_ROOT and
// CODEX_MANAGED_BY_NPM as a person's npm install does. The tests hard-link the native package into each
// Codex home's packages/ (what the daemon would otherwise copy, 424 MB, on its first start).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..', '..');
export const PINNED_VERSION = JSON.parse(readFileSync(path.join(import.meta.dirname, 'pinned.json'), 'utf8')).version;
export const cacheRoot = () => path.resolve(process.env.CODEX_CACHE || path.join(root, '.cache', 'codex'));
/** The npm wrapper once installed. */
export const binaryPath = (version = PINNED_VERSION) =>
  path.join(cacheRoot(), version, 'node_modules', '.bin', 'codex');

const TRIPLES = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

/** The platform package's folder holding bin/codex, codex-resources and codex-path (the daemon's layout). */
export function vendorDir(version = PINNED_VERSION) {
  const key = `${process.platform}-${process.arch}`;
  const triple = TRIPLES[key];
  if (!triple) throw new Error(`no Codex build for ${key}`);
  return path.join(cacheRoot(), version, 'node_modules', '@openai', `codex-${key}`, 'vendor', triple);
}

function answersVersion(binary, version) {
  if (!existsSync(binary)) return false;
  // A HOME and CODEX_HOME of its own: --version must not touch a real ~/.codex.
  const scratch = path.join(cacheRoot(), '.version-check');
  mkdirSync(scratch, { recursive: true });
  const run = spawnSync(binary, ['--version'], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, HOME: scratch, CODEX_HOME: scratch },
  });
  return run.status === 0 && run.stdout.trim() === `codex-cli ${version}`;
}

export function install(version = PINNED_VERSION) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`not a version: ${version}`);
  const dir = path.join(cacheRoot(), version);
  const wrapper = binaryPath(version);
  if (answersVersion(wrapper, version) && existsSync(path.join(vendorDir(version), 'bin', 'codex'))) return wrapper;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
  // No --omit=optional: the native binary is the optional dependency. The package has no install scripts.
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `@openai/codex@${version}`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (!existsSync(path.join(vendorDir(version), 'bin', 'codex')))
    throw new Error(`@openai/codex@${version} brought no native binary for ${process.platform}-${process.arch}`);
  if (!answersVersion(wrapper, version)) throw new Error(`${wrapper} does not answer --version with ${version}`);
  return wrapper;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    console.log(install(process.argv[2] ?? PINNED_VERSION));
  } catch (error) {
    console.error(`codex install: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
