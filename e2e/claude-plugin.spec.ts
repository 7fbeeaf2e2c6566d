import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';

// The Claude Code plugins (plugins/, listed by .claude-plugin/marketplace.json) checked by the pinned Claude Code
// itself: `claude plugin validate --strict`, then `plugin marketplace add` of this checkout and `plugin install`
// in a throwaway HOME, then every hook command the installed copies carry, run against the built CLI.
// The binary comes from scripts/claude-code/install.mjs (.ci/run) or CLAUDE_CODE_BIN; CI fails without it.

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const VERSION = (
  JSON.parse(readFileSync(path.join(ROOT, 'scripts', 'claude-code', 'pinned.json'), 'utf8')) as { version: string }
).version;
const CLAUDE =
  process.env.CLAUDE_CODE_BIN ||
  path.join(path.resolve(process.env.CLAUDE_CODE_CACHE || path.join(ROOT, '.cache', 'claude-code')), VERSION, 'claude');
const PLUGINS = ['askaway', 'askaway-all-tools', 'askaway-mcp'];

interface ValidateReport {
  success: boolean;
  manifest: { type: string; errors: unknown[]; warnings: unknown[] };
}
interface ListedPlugin {
  id: string;
  enabled: boolean;
  installPath?: string;
}
type HookFile = { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> };

let home: string | undefined;

test.afterEach(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

async function claude(args: string[]): Promise<string> {
  if (!home) throw new Error('no HOME for Claude Code yet');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  delete env.CLAUDE_CONFIG_DIR;
  const { stdout } = await run(CLAUDE, args, { cwd: home, env, maxBuffer: 8 * 1024 * 1024 });
  return stdout;
}

/** Runs a hook command line as Claude Code does (a shell), with `askaway` being this checkout's build. */
async function runHookCommand(command: string, bin: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn('/bin/sh', ['-c', command], {
    env: {
      ...process.env,
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      ASKAWAY_URL: 'http://127.0.0.1:9',
    },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // An event every Askaway hook leaves alone: it parses the command line, reads stdin and exits.
  child.stdin.end(JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash', session_id: 'e2e', cwd: ROOT }));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

test('[R15.2] Claude Code validates the plugins and the marketplace, installs them, and their hooks run askaway', async ({}, testInfo) => {
  test.skip(testInfo.project.name !== testInfo.config.projects[0]?.name, 'no browser involved: run once');
  if (!existsSync(CLAUDE)) {
    const why = `Claude Code ${VERSION} is not at ${CLAUDE}: run \`node scripts/claude-code/install.mjs\` or set CLAUDE_CODE_BIN`;
    expect(process.env.CI, why).toBeFalsy();
    test.skip(true, why);
  }
  home = await mkdtemp(path.join(os.tmpdir(), 'askaway-claude-plugin-'));

  await test.step('claude plugin validate --strict', async () => {
    for (const target of [...PLUGINS.map((name) => path.join(ROOT, 'plugins', name)), ROOT]) {
      const report = JSON.parse(await claude(['plugin', 'validate', '--strict', '--json', target])) as ValidateReport;
      expect(report.success, target).toBe(true);
      expect(report.manifest.errors, target).toEqual([]);
      expect(report.manifest.warnings, target).toEqual([]);
      expect(report.manifest.type, target).toBe(target === ROOT ? 'marketplace' : 'plugin');
    }
  });

  const installed = await test.step('marketplace add, then install (askaway comes as a dependency)', async () => {
    await claude(['plugin', 'marketplace', 'add', ROOT]);
    await claude(['plugin', 'install', 'askaway-all-tools@askaway']);
    await claude(['plugin', 'install', 'askaway-mcp@askaway']);
    const listed = JSON.parse(await claude(['plugin', 'list', '--json'])) as ListedPlugin[];
    const ours = listed.filter((plugin) => plugin.id.endsWith('@askaway'));
    expect(ours.map((plugin) => plugin.id).sort()).toEqual(PLUGINS.map((name) => `${name}@askaway`).sort());
    expect(ours.filter((plugin) => !plugin.enabled)).toEqual([]);
    return ours;
  });

  await test.step('the installed copies carry the repo files', async () => {
    for (const plugin of installed) {
      const name = plugin.id.replace(/@askaway$/, '');
      if (!plugin.installPath) throw new Error(`${plugin.id} has no installPath`);
      for (const file of ['.claude-plugin/plugin.json', 'hooks/hooks.json', '.mcp.json']) {
        const source = path.join(ROOT, 'plugins', name, file);
        if (!existsSync(source)) continue;
        expect(await readFile(path.join(plugin.installPath, file), 'utf8'), `${plugin.id} ${file}`).toBe(
          await readFile(source, 'utf8'),
        );
      }
    }
  });

  await test.step('every installed hook command runs the askaway CLI, which accepts it', async () => {
    if (!home) throw new Error('no HOME');
    const bin = await mkdtemp(path.join(home, 'bin-'));
    await writeFile(path.join(bin, 'askaway'), `#!/bin/sh\nexec "${process.execPath}" "${ROOT}/bin/askaway.js" "$@"\n`);
    await chmod(path.join(bin, 'askaway'), 0o755);
    const commands = new Set<string>();
    for (const plugin of installed) {
      const file = path.join(plugin.installPath ?? '', 'hooks', 'hooks.json');
      if (!existsSync(file)) continue;
      const { hooks } = JSON.parse(await readFile(file, 'utf8')) as HookFile;
      for (const groups of Object.values(hooks))
        for (const group of groups) for (const hook of group.hooks) commands.add(hook.command);
    }
    expect([...commands].sort()).toEqual([
      'askaway hook claude-code',
      'askaway hook claude-code --all-tools',
      'askaway hook claude-code --finished-card',
    ]);
    for (const command of commands) {
      const result = await runHookCommand(command, bin);
      expect(result, command).toMatchObject({ code: 0 });
      expect(result.stderr, command).toContain('ignoring it');
    }
    // The same run with a flag the CLI does not know fails, so a renamed flag cannot pass unnoticed.
    expect((await runHookCommand('askaway hook claude-code --every-tool', bin)).code).toBe(2);
  });
});
