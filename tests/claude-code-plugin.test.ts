import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpCommand } from '../bin/commands/mcp';
import { expectItem } from '../lib/core/test-support/expect-item';
import { askawayHookSettings } from '../lib/runtime/agents/claude-code/install';

// The Claude Code plugins in plugins/ (listed by .claude-plugin/marketplace.json) wire the installed `askaway`
// command. This checks that they run what `askaway hook install` writes; e2e/claude-plugin.spec.ts has the real
// Claude Code validate and install them and runs the commands they installed.

const ROOT = path.resolve(import.meta.dirname, '..');

type HookGroup = { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] };
interface PluginManifest {
  name: string;
  version: string;
  dependencies?: string[];
}
interface Marketplace {
  name: string;
  plugins: { name: string; source: string }[];
}

function readJson<T>(...parts: string[]): T {
  return JSON.parse(fs.readFileSync(path.join(ROOT, ...parts), 'utf8')) as T;
}

const marketplace = readJson<Marketplace>('.claude-plugin', 'marketplace.json');
const packageVersion = readJson<{ version: string }>('package.json').version;
const hooksOf = (plugin: string) =>
  readJson<{ hooks: Record<string, HookGroup[]> }>('plugins', plugin, 'hooks', 'hooks.json').hooks;

describe('Claude Code plugins', () => {
  it('[R15.2] the marketplace lists every plugin folder, each named and versioned like its manifest and the package', () => {
    // Codex's plugins (.codex-plugin/) have a marketplace of their own: tests/codex-plugin.test.ts.
    const folders = fs
      .readdirSync(path.join(ROOT, 'plugins'))
      .filter((folder) => fs.existsSync(path.join(ROOT, 'plugins', folder, '.claude-plugin')))
      .sort();
    expect(marketplace.plugins.map((entry) => entry.source).sort()).toEqual(
      folders.map((folder) => `./plugins/${folder}`),
    );
    for (const entry of marketplace.plugins) {
      const manifest = readJson<PluginManifest>(entry.source, '.claude-plugin', 'plugin.json');
      expect(manifest.name).toBe(entry.name);
      expect(manifest.version, `${entry.name} follows package.json`).toBe(packageVersion);
      for (const dependency of manifest.dependencies ?? [])
        expect(marketplace.plugins.map((plugin) => plugin.name)).toContain(dependency);
    }
  });

  it('[R15.2] the askaway plugin installs exactly the hooks `askaway hook install` writes', () => {
    expect(hooksOf('askaway')).toEqual(askawayHookSettings().hooks);
  });

  it('[R15.2] askaway-all-tools sends every other permission prompt, never a second hook for questions or plans', () => {
    const groups = hooksOf('askaway-all-tools').PermissionRequest ?? [];
    expect(groups).toHaveLength(1);
    const [group] = groups;
    // Claude Code tests a matcher that is not a plain name list as a JavaScript regular expression.
    const matcher = new RegExp(group?.matcher ?? '');
    for (const tool of ['Bash', 'Edit', 'Write', 'WebFetch', 'mcp__github__create_issue', 'ExitPlanModeLater'])
      expect(matcher.test(tool), tool).toBe(true);
    for (const tool of ['AskUserQuestion', 'ExitPlanMode']) expect(matcher.test(tool), tool).toBe(false);
    const allTools = expectItem(
      expectItem(askawayHookSettings({ allTools: true }).hooks.PermissionRequest ?? [], 0).hooks,
      0,
    );
    expect(group?.hooks).toEqual([allTools]);
    expect(Object.keys(hooksOf('askaway-all-tools'))).toEqual(['PermissionRequest']);
  });

  it('[R15.2] askaway-mcp starts `askaway mcp`', () => {
    const { mcpServers } = readJson<{ mcpServers: Record<string, { command: string; args: string[] }> }>(
      'plugins',
      'askaway-mcp',
      '.mcp.json',
    );
    expect(mcpServers).toEqual({ askaway: { command: 'askaway', args: [mcpCommand.name] } });
  });
});
