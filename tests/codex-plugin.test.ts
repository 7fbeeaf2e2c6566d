import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { askawayCodexHooks } from '../lib/runtime/agents/codex/install';

// The Codex plugin in plugins/ (listed by .agents/plugins/marketplace.json) wires the installed `askaway`
// command; e2e/codex/hooks.spec.ts has the real Codex CLI install it and list what it carries.

const ROOT = path.resolve(import.meta.dirname, '..');
const readJson = <T>(...parts: string[]): T => JSON.parse(fs.readFileSync(path.join(ROOT, ...parts), 'utf8')) as T;

interface CodexMarketplace {
  name: string;
  plugins: { name: string; source: { source: string; path: string } }[];
}

describe('[R18.16] the Codex plugin', () => {
  const marketplace = readJson<CodexMarketplace>('.agents', 'plugins', 'marketplace.json');

  it('[R18.16] the Codex marketplace lists every Codex plugin folder, versioned like the package', () => {
    const folders = fs
      .readdirSync(path.join(ROOT, 'plugins'))
      .filter((folder) => fs.existsSync(path.join(ROOT, 'plugins', folder, '.codex-plugin')));
    expect(marketplace.plugins.map((plugin) => plugin.source.path).sort()).toEqual(
      folders.map((folder) => `./plugins/${folder}`).sort(),
    );
    const version = readJson<{ version: string }>('package.json').version;
    for (const plugin of marketplace.plugins) {
      const manifest = readJson<{ name: string; version: string }>(plugin.source.path, '.codex-plugin', 'plugin.json');
      expect(manifest).toMatchObject({ name: plugin.name, version });
    }
  });

  it('[R18.16] askaway-codex carries exactly the hook `askaway hook install --agent codex` writes, and askaway mcp', () => {
    const hooks = readJson<unknown>('plugins', 'askaway-codex', 'hooks', 'hooks.json');
    expect(hooks).toEqual(askawayCodexHooks());
    expect(readJson<unknown>('plugins', 'askaway-codex', '.mcp.json')).toEqual({
      mcpServers: { askaway: { command: 'askaway', args: ['mcp'] } },
    });
  });
});
