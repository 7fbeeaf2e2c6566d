#!/usr/bin/env node
// Installs the pinned OpenCode (a Bun-compiled native binary, ~185 MB) into a cache folder for the e2e tests
// only, never as a project dependency, and prepares the OpenCode config folder every test copies in.
// Idempotent: an installed version that answers --version, and a prepared folder, are kept.
//   node scripts/opencode/install.mjs            # the pinned version (scripts/opencode/pinned.json)
//   node scripts/opencode/install.mjs 1.18.30    # another version
// OPENCODE_CACHE moves the cache (default: .cache/opencode in the checkout). Prints the binary's path.
//
// Only the platform package is installed, with scripts off: the `opencode-ai` wrapper's postinstall would pick
// that same package among its optionalDependencies (npm installs both linux-x64 and linux-x64-baseline, 2 × 177
// MB) and hard-link its binary. Everything comes from the npm registry; nothing is downloaded from elsewhere.
//
// The prepared config folder: at every start OpenCode installs `@opencode-ai/plugin` into
// $XDG_CONFIG_HOME/opencode/ in the background and loads plugins only once that is done (17–25 s online,
// about 71 s of retries without the registry). A folder where it is already installed removes the wait.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..', '..');
export const PINNED_VERSION = JSON.parse(readFileSync(path.join(import.meta.dirname, 'pinned.json'), 'utf8')).version;
export const cacheRoot = () => path.resolve(process.env.OPENCODE_CACHE || path.join(root, '.cache', 'opencode'));
/** Where a version's binary is linked once installed. */
export const binaryPath = (version = PINNED_VERSION) => path.join(cacheRoot(), version, 'opencode');
/** A config folder (`package.json`, `package-lock.json`, `node_modules`) with that version's plugin package. */
export const preparedConfigPath = (version = PINNED_VERSION) => path.join(cacheRoot(), version, 'config');

/** The npm package that carries the native binary for this machine (the wrapper's postinstall chooses the same). */
export function platformPackage() {
  const platform = { darwin: 'darwin', linux: 'linux', win32: 'windows' }[process.platform] ?? process.platform;
  const arch = process.arch;
  let name = `opencode-${platform}-${arch}`;
  if (platform === 'linux') {
    const report = process.report?.getReport();
    const musl = !(report && typeof report === 'object' && report.header?.glibcVersionRuntime);
    let avx2 = true;
    if (arch === 'x64') {
      try {
        avx2 = /(^|\s)avx2(\s|$)/i.test(readFileSync('/proc/cpuinfo', 'utf8'));
      } catch {
        avx2 = false;
      }
    }
    if (arch === 'x64' && !avx2) name += '-baseline';
    if (musl) name += '-musl';
  }
  return { name, bin: platform === 'windows' ? 'opencode.exe' : 'opencode' };
}

function answersVersion(binary, version) {
  if (!existsSync(binary)) return false;
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return run.status === 0 && run.stdout.trim() === version;
}

const npmInstall = (prefix, spec) =>
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--save-exact',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      spec,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );

/** What OpenCode itself writes into its config folder, installed the same way (npm, from the registry). */
export function prepareConfig(version = PINNED_VERSION) {
  const dir = preparedConfigPath(version);
  if (existsSync(path.join(dir, 'node_modules', '@opencode-ai', 'plugin', 'package.json'))) return dir;
  const temp = `${dir}.${process.pid}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  writeFileSync(
    path.join(temp, 'package.json'),
    `${JSON.stringify({ dependencies: { '@opencode-ai/plugin': version } }, null, 2)}\n`,
  );
  npmInstall(temp, `@opencode-ai/plugin@${version}`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(temp, dir);
  return dir;
}

export function install(version = PINNED_VERSION) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`not a version: ${version}`);
  const dir = path.join(cacheRoot(), version);
  const link = binaryPath(version);
  if (!answersVersion(link, version)) {
    rmSync(link, { force: true });
    const pkg = platformPackage();
    const binary = path.join(dir, 'node_modules', pkg.name, 'bin', pkg.bin);
    if (!answersVersion(binary, version)) {
      rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
      npmInstall(dir, `${pkg.name}@${version}`);
    }
    if (!existsSync(binary)) throw new Error(`${pkg.name}@${version} carries no bin/${pkg.bin}`);
    symlinkSync(binary, link);
    if (!answersVersion(link, version)) throw new Error(`${link} does not answer --version with ${version}`);
  }
  prepareConfig(version);
  return link;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    console.log(install(process.argv[2] ?? PINNED_VERSION));
  } catch (error) {
    console.error(`opencode install: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
