#!/usr/bin/env node
// Installs the pinned GitHub Copilot CLI into a cache folder for the e2e tests only, never as a project
// dependency (.ci/run calls it). The npm package @github/copilot is a small Node loader (npm-loader.js) whose
// native binary is the optional platform package (@github/copilot-linux-x64, 197 MB). On its first run the
// binary unpacks 235 MB into $XDG_CACHE_HOME/copilot/pkg: this does that once, into <cache>/xdg, which the
// tests share (each with its own HOME). Idempotent: an installed version that answers --version is kept.
//   node scripts/copilot/install.mjs            # the pinned version (scripts/copilot/pinned.json)
//   node scripts/copilot/install.mjs 1.0.103    # another version
// COPILOT_CACHE moves the cache (default: .cache/copilot in the checkout). Prints the native binary's path.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..', '..');
export const PINNED_VERSION = JSON.parse(readFileSync(path.join(import.meta.dirname, 'pinned.json'), 'utf8')).version;
export const cacheRoot = () => path.resolve(process.env.COPILOT_CACHE || path.join(root, '.cache', 'copilot'));
/** The unpacked package cache the tests share (XDG_CACHE_HOME). */
export const xdgCacheDir = () => path.join(cacheRoot(), 'xdg');

/** The native binary once installed (the loader only finds and spawns it). */
export function binaryPath(version = PINNED_VERSION) {
  const platform = process.platform === 'linux' && isMusl() ? 'linuxmusl' : process.platform;
  return path.join(cacheRoot(), version, 'node_modules', '@github', `copilot-${platform}-${process.arch}`, 'copilot');
}

function isMusl() {
  const report = process.report?.getReport?.();
  return Boolean(report && typeof report === 'object' && !report.header?.glibcVersionRuntime);
}

function answersVersion(binary, version) {
  if (!existsSync(binary)) return false;
  // A HOME of its own: --version must not touch a real ~/.copilot.
  const scratch = path.join(cacheRoot(), '.version-check');
  mkdirSync(scratch, { recursive: true });
  const run = spawnSync(binary, ['--version', '--no-auto-update'], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, HOME: scratch, XDG_CACHE_HOME: xdgCacheDir(), COPILOT_OFFLINE: 'true' },
  });
  return run.status === 0 && run.stdout.includes(`GitHub Copilot CLI ${version}`);
}

export function install(version = PINNED_VERSION) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`not a version: ${version}`);
  const dir = path.join(cacheRoot(), version);
  const binary = binaryPath(version);
  if (answersVersion(binary, version)) return binary;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
  // No --omit=optional: the native binary is the optional dependency. The packages have no install scripts.
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
      `@github/copilot@${version}`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (!existsSync(binary))
    throw new Error(`@github/copilot@${version} brought no native binary for ${process.platform}-${process.arch}`);
  if (!answersVersion(binary, version)) throw new Error(`${binary} does not answer --version with ${version}`);
  return binary;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    console.log(install(process.argv[2] ?? PINNED_VERSION));
  } catch (error) {
    console.error(`copilot install: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
