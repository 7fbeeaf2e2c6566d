#!/usr/bin/env node
// Installs an agent's pinned binary into the shared cache for the e2e tests only, never as a project
// dependency (.ci/run and the test:<agent> scripts call it through scripts/<agent>/install.mjs). Everything comes
// from the npm registry, with install scripts off. What differs between the agents is data in AGENTS below;
// each pin stays in scripts/<agent>/pinned.json, which the e2e suites read too.
//   node scripts/agents/install.mjs gemini            # the pinned version
//   node scripts/agents/install.mjs gemini 0.62.0     # another version, e.g. to find the oldest that works
// <AGENT>_CACHE (CLAUDE_CODE_CACHE, CODEX_CACHE, …) moves an agent's cache (default: .cache/<agent> in the
// checkout). Prints the path the tests run. Idempotent and quick when the cache is right: a version whose
// binary answers --version (and whose other parts are there) is kept, and nothing is written.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..', '..');

/** True on a Linux whose C library is musl (Node's report names glibc's version otherwise). */
function isMusl() {
  if (process.platform !== 'linux') return false;
  const report = process.report?.getReport?.();
  return !(report && typeof report === 'object' && report.header?.glibcVersionRuntime);
}

function hasAvx2() {
  try {
    return /(^|\s)avx2(\s|$)/i.test(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return false;
  }
}

/** Codex's native folder under its platform package (the layout its daemon expects). */
const CODEX_TRIPLES = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

/**
 * Per agent: `install(version)` the npm spec and flags, `binary` the file it brings (relative to the version's
 * folder), `link` a name in the version's folder pointing at it (what the tests run) when the binary sits deep,
 * `answers` how its `--version` reads, `env` what that run needs, `parts` further files the tests need, and
 * `prepare` what is made beside the binary once it answers.
 */
export const AGENTS = {
  // A native binary (~400 MB) in a platform package; until 2.1.10x the wrapper itself was a Node script (cli.js).
  'claude-code': {
    install(version) {
      const wrapper = '@anthropic-ai/claude-code';
      const bin = JSON.parse(
        execFileSync('npm', ['view', `${wrapper}@${version}`, 'bin', '--json'], { encoding: 'utf8' }),
      );
      if (bin?.claude === 'cli.js') return { spec: `${wrapper}@${version}`, binary: nodeModule(wrapper, 'cli.js') };
      const { platform, arch } = process;
      const name = `@anthropic-ai/claude-code-${platform}-${arch}${isMusl() ? '-musl' : ''}`;
      // The wrapper's postinstall would only copy this same binary, so the platform package alone is installed.
      return {
        spec: `${name}@${version}`,
        binary: nodeModule(name, platform === 'win32' ? 'claude.exe' : 'claude'),
        flags: ['--omit=optional'],
      };
    },
    link: 'claude',
    answers: (stdout, version) => stdout.startsWith(version),
    env: () => ({ DISABLE_AUTOUPDATER: '1' }),
  },
  // A 2 kB Node wrapper (bin/codex.js) whose native binary (172 MB download, 424 MB unpacked) is the optional
  // platform package. The wrapper is what runs: it sets CODEX_MANAGED_PACKAGE_ROOT and CODEX_MANAGED_BY_NPM as a
  // person's npm install does; the tests hard-link the native package into each Codex home's packages/.
  codex: {
    install: (version) => ({ spec: `@openai/codex@${version}`, binary: nodeModule('.bin', 'codex') }),
    answers: (stdout, version) => stdout.trim() === `codex-cli ${version}`,
    env: (scratch) => ({ CODEX_HOME: scratch }),
    parts: () => {
      const key = `${process.platform}-${process.arch}`;
      if (!CODEX_TRIPLES[key]) throw new Error(`no Codex build for ${key}`);
      return [nodeModule('@openai', `codex-${key}`, 'vendor', CODEX_TRIPLES[key], 'bin', 'codex')];
    },
  },
  // A Bun-compiled native binary (~185 MB) in the platform package the `opencode-ai` wrapper's postinstall would
  // pick (npm would install both linux-x64 and linux-x64-baseline, 2 × 177 MB, for the wrapper).
  opencode: {
    install(version) {
      const platform = { darwin: 'darwin', linux: 'linux', win32: 'windows' }[process.platform] ?? process.platform;
      const { arch } = process;
      let name = `opencode-${platform}-${arch}`;
      if (platform === 'linux' && arch === 'x64' && !hasAvx2()) name += '-baseline';
      if (isMusl()) name += '-musl';
      return {
        spec: `${name}@${version}`,
        binary: nodeModule(name, 'bin', platform === 'windows' ? 'opencode.exe' : 'opencode'),
      };
    },
    link: 'opencode',
    answers: (stdout, version) => stdout.trim() === version,
    // At every start OpenCode installs `@opencode-ai/plugin` into $XDG_CONFIG_HOME/opencode/ in the background and
    // loads plugins only once that is done (17–25 s online, about 71 s of retries offline): a config folder where
    // it is already installed, which each test copies in, removes the wait.
    prepare: (dir, version) => prepareFolder(path.join(dir, 'config'), '@opencode-ai/plugin', version),
  },
  // A small Node loader whose native binary (197 MB) is the optional platform package. Its first run unpacks
  // 235 MB into $XDG_CACHE_HOME/copilot/pkg: the version check does that once, into <cache>/xdg, which the tests
  // share (each with a HOME of its own). The native binary is what the tests run.
  copilot: {
    install: (version) => ({
      spec: `@github/copilot@${version}`,
      binary: nodeModule('@github', `copilot-${isMusl() ? 'linuxmusl' : process.platform}-${process.arch}`, 'copilot'),
    }),
    args: ['--no-auto-update'],
    answers: (stdout, version) => stdout.includes(`GitHub Copilot CLI ${version}`),
    env: (scratch, cache) => ({ XDG_CACHE_HOME: path.join(cache, 'xdg'), COPILOT_OFFLINE: 'true' }),
    timeoutMs: 120_000,
  },
  // A Node program (about 96 MB with its dependencies) that speaks ACP on stdio with `--acp`.
  gemini: {
    install: (version) => ({ spec: `@google/gemini-cli@${version}`, binary: nodeModule('.bin', 'gemini') }),
    answers: (stdout, version) => stdout.trim().endsWith(version),
    env: () => ({ GEMINI_CLI_NO_RELAUNCH: 'true', NO_COLOR: '1' }),
    timeoutMs: 60_000,
  },
};

function nodeModule(...parts) {
  return path.join('node_modules', ...parts.flatMap((part) => part.split('/')));
}

export const pinnedVersion = (agent) =>
  JSON.parse(readFileSync(path.join(root, 'scripts', agent, 'pinned.json'), 'utf8')).version;

export const cacheRoot = (agent) =>
  path.resolve(process.env[`${agent.replace('-', '_').toUpperCase()}_CACHE`] || path.join(root, '.cache', agent));

function npmInstall(prefix, spec, flags) {
  execFileSync(
    'npm',
    ['install', '--prefix', prefix, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...flags, spec],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
}

/** A folder whose package.json depends on `name@version`, installed with npm as the agent would; kept once there. */
function prepareFolder(dir, name, version) {
  if (existsSync(path.join(dir, nodeModule(name, 'package.json')))) return;
  const temp = `${dir}.${process.pid}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  writeFileSync(path.join(temp, 'package.json'), `${JSON.stringify({ dependencies: { [name]: version } }, null, 2)}\n`);
  npmInstall(temp, `${name}@${version}`, ['--save-exact']);
  rmSync(dir, { recursive: true, force: true });
  renameSync(temp, dir);
}

/** Whether `binary --version` names `version`, run with a HOME of its own so it touches no real ~/.<agent>. */
function answersVersion(agent, spec, binary, version) {
  if (!existsSync(binary)) return false;
  const cache = cacheRoot(agent);
  const scratch = path.join(cache, '.version-check');
  mkdirSync(scratch, { recursive: true });
  const run = spawnSync(binary, ['--version', ...(spec.args ?? [])], {
    encoding: 'utf8',
    timeout: spec.timeoutMs ?? 30_000,
    env: { ...process.env, HOME: scratch, ...spec.env?.(scratch, cache) },
  });
  return run.status === 0 && spec.answers(run.stdout, version);
}

/** The path the tests run once `agent` is installed at `version`; installs it first unless it already answers. */
export function install(agent, version = pinnedVersion(agent)) {
  const spec = AGENTS[agent];
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`not a version: ${version}`);
  const dir = path.join(cacheRoot(agent), version);
  const ready = (runs) =>
    answersVersion(agent, spec, runs, version) &&
    (spec.parts?.() ?? []).every((part) => existsSync(path.join(dir, part)));
  // A right cache needs no npm and no registry (Claude Code's install() asks it), only the answer of what runs.
  let target = spec.link ? null : spec.install(version);
  const runs = spec.link ? path.join(dir, spec.link) : path.join(dir, target.binary);
  if (!ready(runs)) {
    target ??= spec.install(version);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
    npmInstall(dir, target.spec, ['--no-save', ...(target.flags ?? [])]);
    const binary = path.join(dir, target.binary);
    if (!existsSync(binary))
      throw new Error(`${target.spec} brought no ${target.binary} for ${process.platform}-${process.arch}`);
    if (spec.link) symlinkSync(binary, runs);
    if (!ready(runs)) throw new Error(`${runs} does not answer --version with ${version}`);
  }
  spec.prepare?.(dir, version);
  return runs;
}

/** The command line of scripts/<agent>/install.mjs and of this file: prints the path, or why not and exits 1. */
export function main(agent, version) {
  try {
    if (!Object.hasOwn(AGENTS, agent))
      throw new Error(`no such agent: "${agent}" (one of ${Object.keys(AGENTS).join(', ')})`);
    console.log(install(agent, version ?? pinnedVersion(agent)));
  } catch (error) {
    console.error(`${agent} install: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv[2] ?? '', process.argv[3]);
