#!/usr/bin/env node
// Installs the pinned Claude Code (a native binary, ~400 MB) into a cache folder for the e2e tests only,
// never as a project dependency. Idempotent: an installed version that answers --version is kept.
//   node scripts/claude-code/install.mjs            # the pinned version (scripts/claude-code/pinned.json)
//   node scripts/claude-code/install.mjs 2.1.85     # another version, e.g. to find the oldest that works
// CLAUDE_CODE_CACHE moves the cache (default: .cache/claude-code in the checkout). Prints the binary's path.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..', '..');
export const PINNED_VERSION = JSON.parse(readFileSync(path.join(import.meta.dirname, 'pinned.json'), 'utf8')).version;
export const cacheRoot = () => path.resolve(process.env.CLAUDE_CODE_CACHE || path.join(root, '.cache', 'claude-code'));
/** Where a version's binary is linked once installed. */
export const binaryPath = (version = PINNED_VERSION) => path.join(cacheRoot(), version, 'claude');

const WRAPPER = '@anthropic-ai/claude-code';

/** The npm package that carries the native binary for this machine. */
function platformPackage() {
  const { platform, arch } = process;
  if (platform === 'win32') return { name: `@anthropic-ai/claude-code-win32-${arch}`, bin: 'claude.exe' };
  let musl = false;
  if (platform === 'linux') {
    const report = process.report?.getReport();
    musl = !(report && typeof report === 'object' && report.header?.glibcVersionRuntime);
  }
  return { name: `@anthropic-ai/claude-code-${platform}-${arch}${musl ? '-musl' : ''}`, bin: 'claude' };
}

function answersVersion(binary, version) {
  if (!existsSync(binary)) return false;
  const run = spawnSync(binary, ['--version'], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, DISABLE_AUTOUPDATER: '1' },
  });
  return run.status === 0 && run.stdout.startsWith(version);
}

export function install(version = PINNED_VERSION) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`not a version: ${version}`);
  const dir = path.join(cacheRoot(), version);
  const link = binaryPath(version);
  if (answersVersion(link, version)) return link;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
  // Until 2.1.10x the package was a Node script (cli.js); later ones carry a native binary in a platform
  // package, which is all we install (the wrapper's postinstall would only copy that same binary).
  const bin = JSON.parse(execFileSync('npm', ['view', `${WRAPPER}@${version}`, 'bin', '--json'], { encoding: 'utf8' }));
  const pkg = bin?.claude === 'cli.js' ? { name: WRAPPER, bin: 'cli.js' } : platformPackage();
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--ignore-scripts',
      '--omit=optional',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `${pkg.name}@${version}`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const binary = path.join(dir, 'node_modules', ...pkg.name.split('/'), pkg.bin);
  if (!existsSync(binary)) throw new Error(`${pkg.name}@${version} carries no ${pkg.bin}`);
  symlinkSync(binary, link);
  if (!answersVersion(link, version)) throw new Error(`${link} does not answer --version with ${version}`);
  return link;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    console.log(install(process.argv[2] ?? PINNED_VERSION));
  } catch (error) {
    console.error(`claude-code install: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
