// How the plugin is installed (R18.2: install, R18.27): one file, `askaway.js`, in OpenCode's global plugin
// folder or a project's `.opencode/plugins/`. Nothing else is touched: not opencode.json, not other plugins.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AGENT_CONFIG_MAX_BYTES, readRegularText } from '../../safe-file';
import { type PluginOptions } from './bridge-protocol';

export const PLUGIN_FILE = 'askaway.js';
export const BRIDGE_COMMAND = 'askaway opencode bridge';
/** The first line of every file this writes: how a re-install knows the file is its own. */
export const PLUGIN_MARKER = '// Askaway for OpenCode';

declare const ASKAWAY_OPENCODE_PLUGIN_SOURCE: string | undefined;

/** The plugin's code, built into the CLI bundle by scripts/cli-bundle.mjs; undefined when run from sources. */
export function bundledPluginSource(): string | undefined {
  return typeof ASKAWAY_OPENCODE_PLUGIN_SOURCE === 'string' ? ASKAWAY_OPENCODE_PLUGIN_SOURCE : undefined;
}

type Env = Record<string, string | undefined>;

/** OpenCode's global plugin folder ($XDG_CONFIG_HOME/opencode/plugins), or a project's `.opencode/plugins`. */
export function pluginFolder(scope: { project?: string; env: Env; home: string }): string {
  if (scope.project !== undefined) return path.join(scope.project, '.opencode', 'plugins');
  const config = scope.env.XDG_CONFIG_HOME || path.join(scope.home, '.config');
  return path.join(config, 'opencode', 'plugins');
}

/** The installed file: what it is and how to remove it, the options, then the self-contained plugin. */
export function pluginFileText(source: string, options: PluginOptions): string {
  return [
    `${PLUGIN_MARKER}: its questions and permission prompts on your phone (askaway ${options.version}).`,
    '// Written by `askaway opencode install`; run it again to update, `askaway opencode install --remove` to remove.',
    "// Self-contained: it imports only Node's built-ins, and starts `askaway opencode bridge`, which talks to Askaway.",
    `const ASKAWAY_OPENCODE = ${JSON.stringify(options)};`,
    source.trimEnd(),
    '',
  ].join('\n');
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readRegularText(file, { maxBytes: AGENT_CONFIG_MAX_BYTES });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const isOurs = (text: string) => text.startsWith(PLUGIN_MARKER);

/**
 * Writes the plugin atomically, safe to repeat: the same text changes nothing, an older Askaway plugin is
 * replaced, a file of the same name that is not Askaway's is refused.
 */
export async function writePluginFile(file: string, text: string): Promise<{ changed: boolean }> {
  const existing = await readIfThere(file);
  if (existing === text) return { changed: false };
  if (existing !== undefined && !isOurs(existing))
    throw new Error(`${file} exists and is not Askaway's plugin; move it away, or install per project instead`);
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, file);
  return { changed: true };
}

/** Removes the plugin if it is Askaway's; anything else there stays. */
export async function removePluginFile(file: string): Promise<{ removed: boolean }> {
  const existing = await readIfThere(file);
  if (existing === undefined) return { removed: false };
  if (!isOurs(existing)) throw new Error(`${file} is not Askaway's plugin; left as it is`);
  await rm(file, { force: true });
  return { removed: true };
}
