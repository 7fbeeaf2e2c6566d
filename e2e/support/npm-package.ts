import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type InstalledCli } from './host';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPM_RUN_ENV = /^npm_(lifecycle_|package_|config_(prefix|global_prefix|local_prefix|call|yes)$)/i;
const NATIVE_ADDON = path.join('build', 'Release', 'better_sqlite3.node');

export interface InstalledPackage extends InstalledCli {
  tarball: { file: string; bytes: number; files: string[] };
  /** Top-level package folders in the installed package's node_modules (scoped ones as @scope/name). */
  dependencies: string[];
  /** Whether the native addon had to be built because the checkout's copy was another version. */
  rebuiltNativeAddon: boolean;
  remove(): Promise<void>;
}

async function npm(args: string[], cwd: string): Promise<string> {
  // What `npm test` exported about itself (the checkout as prefix, its script) must not steer the npm under test;
  // the rest (registry, cache, certificates) should.
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (NPM_RUN_ENV.test(key)) delete env[key];
  const { stdout } = await run(NPM, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

async function version(packageDir: string): Promise<string> {
  return (JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
}

async function topLevelPackages(nodeModules: string): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await readdir(nodeModules).catch(() => [])) {
    if (entry.startsWith('.')) continue;
    if (!entry.startsWith('@')) names.push(entry);
    else for (const scoped of await readdir(path.join(nodeModules, entry))) names.push(`${entry}/${scoped}`);
  }
  return names.sort();
}

/**
 * `npm pack` of this checkout's existing build, then `npm install -g` of the tarball into a temporary prefix,
 * the way a user installs it. Scripts are skipped on both sides to keep it fast: the build already ran, and
 * better-sqlite3's native addon is copied from the checkout when the versions match (else it is rebuilt).
 */
export async function packAndInstall(): Promise<InstalledPackage> {
  for (const built of ['dist/cli.js', 'out/index.html'])
    await stat(path.join(ROOT, built)).catch(() => {
      throw new Error(`${built} is missing: run \`npm run build\` before the e2e tests`);
    });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'askaway-package-'));
  const packed = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT)) as {
    filename: string;
    size: number;
    files: { path: string }[];
  }[];
  const [tarball] = packed;
  if (!tarball) throw new Error('npm pack reported no tarball');
  const file = path.join(dir, tarball.filename);
  const prefix = path.join(dir, 'prefix');
  await npm(
    [
      'install',
      '--global',
      '--prefix',
      prefix,
      '--ignore-scripts',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      file,
    ],
    dir,
  );
  const packageDir = path.join(prefix, 'lib', 'node_modules', 'askaway');
  const sqliteDir = path.join(packageDir, 'node_modules', 'better-sqlite3');
  const checkoutSqlite = path.join(ROOT, 'node_modules', 'better-sqlite3');
  const sameSqlite = (await version(sqliteDir)) === (await version(checkoutSqlite));
  if (sameSqlite) {
    await mkdir(path.dirname(path.join(sqliteDir, NATIVE_ADDON)), { recursive: true });
    await copyFile(path.join(checkoutSqlite, NATIVE_ADDON), path.join(sqliteDir, NATIVE_ADDON));
  } else {
    await npm(['rebuild', 'better-sqlite3', '--no-audit', '--no-fund'], packageDir);
  }
  return {
    bin: path.join(prefix, 'bin', process.platform === 'win32' ? 'askaway.cmd' : 'askaway'),
    packageDir,
    tarball: { file, bytes: tarball.size, files: tarball.files.map((entry) => entry.path) },
    dependencies: await topLevelPackages(path.join(packageDir, 'node_modules')),
    rebuiltNativeAddon: !sameSqlite,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
