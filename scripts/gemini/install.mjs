#!/usr/bin/env node
// Installs the pinned Gemini CLI into a cache folder for the ACP e2e tests only, never as a project dependency
// (.ci/run calls it). npm @google/gemini-cli is a Node program (about 96 MB with its dependencies) that speaks
// ACP on stdio with `--acp`. Idempotent: an installed version that answers --version is kept.
//   node scripts/gemini/install.mjs           # the pinned version (scripts/gemini/pinned.json)
//   node scripts/gemini/install.mjs 0.61.0    # another version
// GEMINI_CACHE moves the cache (default: .cache/gemini in the checkout). Prints the binary's path.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..', '..');
export const PINNED_VERSION = JSON.parse(readFileSync(path.join(import.meta.dirname, 'pinned.json'), 'utf8')).version;
export const cacheRoot = () => path.resolve(process.env.GEMINI_CACHE || path.join(root, '.cache', 'gemini'));
export const binaryPath = (version = PINNED_VERSION) =>
  path.join(cacheRoot(), version, 'node_modules', '.bin', 'gemini');

function answersVersion(binary, version) {
  if (!existsSync(binary)) return false;
  // A HOME of its own: --version must not touch a real ~/.gemini.
  const scratch = path.join(cacheRoot(), '.version-check');
  mkdirSync(scratch, { recursive: true });
  const run = spawnSync(binary, ['--version'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, HOME: scratch, GEMINI_CLI_NO_RELAUNCH: 'true', NO_COLOR: '1' },
  });
  return run.status === 0 && run.stdout.trim().endsWith(version);
}

export function install(version = PINNED_VERSION) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`not a version: ${version}`);
  const dir = path.join(cacheRoot(), version);
  const binary = binaryPath(version);
  if (answersVersion(binary, version)) return binary;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
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
      `@google/gemini-cli@${version}`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (!answersVersion(binary, version)) throw new Error(`${binary} does not answer --version with ${version}`);
  return binary;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    console.log(install(process.argv[2] ?? PINNED_VERSION));
  } catch (error) {
    console.error(`gemini install: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
