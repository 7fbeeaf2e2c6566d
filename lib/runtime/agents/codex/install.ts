// How Codex is discovered and how Askaway's fallback hook is installed (R18.2: install; R18.14, R18.15).
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isRecord } from '../../../contracts';
import { AGENT_CONFIG_MAX_BYTES, readRegularText } from '../../safe-file';
import { withConfigServer } from './config-server';

export { defaultCodexHome } from './codex-home';

/** The command Codex runs (`askaway` on PATH; `--command` for a checkout). */
export const DEFAULT_CODEX_HOOK_COMMAND = 'askaway hook codex';
/** What Codex's terminal shows while the hook waits ("Running hook · Asking your phone (Askaway)"). */
export const CODEX_HOOK_STATUS_MESSAGE = 'Asking your phone (Askaway)';
/** Codex stops a hook after its `timeout`: the hook gives up on the phone well before. */
const CODEX_HOOK_TIMEOUT_MARGIN_S = 30;

export interface CodexHookInstallOptions {
  command?: string;
  /** How long the hook waits for the phone (ms); Codex's own timeout for it is 30 s more. */
  timeoutMs?: number;
}

/** `$CODEX_HOME/hooks.json`: Codex reads hooks from a hooks.json beside each config layer. */
export function codexHooksFile(codexHome: string): string {
  return path.join(codexHome, 'hooks.json');
}

function hookCommand(options: CodexHookInstallOptions): string {
  const command = options.command ?? DEFAULT_CODEX_HOOK_COMMAND;
  return options.timeoutMs === undefined ? command : `${command} --timeout ${Math.round(options.timeoutMs / 1000)}s`;
}

/** The hooks.json Askaway needs: one PermissionRequest command hook. */
export function askawayCodexHooks(options: CodexHookInstallOptions = {}) {
  const waitS = Math.round((options.timeoutMs ?? 30_000) / 1000);
  return {
    hooks: {
      PermissionRequest: [
        {
          hooks: [
            {
              type: 'command',
              command: hookCommand(options),
              timeout: waitS + CODEX_HOOK_TIMEOUT_MARGIN_S,
              statusMessage: CODEX_HOOK_STATUS_MESSAGE,
            },
          ],
        },
      ],
    },
  };
}

const HooksFileSchema = z.object({ hooks: z.record(z.string(), z.array(z.unknown())).default({}) }).passthrough();

/** A matcher group holding an Askaway hook (any command running `… hook codex`). */
function isAskawayGroup(group: unknown): boolean {
  if (!isRecord(group) || !Array.isArray(group.hooks)) return false;
  return group.hooks.some(
    (hook) => isRecord(hook) && typeof hook.command === 'string' && /\bhook codex\b/.test(hook.command),
  );
}

/**
 * Merges Askaway's hook into hooks.json: other hooks stay, an older Askaway hook is replaced. Returns
 * whether the file changed. A file that is not JSON is refused, never overwritten.
 */
export async function writeCodexHooks(
  file: string,
  options: CodexHookInstallOptions = {},
): Promise<{ changed: boolean }> {
  let existing: string | undefined;
  try {
    existing = await readRegularText(file, { maxBytes: AGENT_CONFIG_MAX_BYTES });
  } catch (error) {
    if (!(isRecord(error) && error.code === 'ENOENT')) throw error;
  }
  let current: z.infer<typeof HooksFileSchema> = { hooks: {} };
  if (existing !== undefined && existing.trim() !== '') {
    let json: unknown;
    try {
      json = JSON.parse(existing);
    } catch {
      throw new Error(`${file} is not valid JSON; fix it first (nothing was changed)`);
    }
    const parsed = HooksFileSchema.safeParse(json);
    if (!parsed.success) throw new Error(`${file} does not look like Codex hooks (nothing was changed)`);
    current = parsed.data;
  }
  const ours = askawayCodexHooks(options).hooks.PermissionRequest;
  const others = (current.hooks.PermissionRequest ?? []).filter((group) => !isAskawayGroup(group));
  const next = { ...current, hooks: { ...current.hooks, PermissionRequest: [...others, ...ours] } };
  const text = `${JSON.stringify(next, null, 2)}\n`;
  if (text === existing) return { changed: false };
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, file);
  return { changed: true };
}

const HookListSchema = z.object({
  data: z.array(
    z.object({
      hooks: z.array(
        z
          .object({
            key: z.string(),
            command: z.string().nullish(),
            sourcePath: z.string().nullish(),
            source: z.string().nullish(),
            pluginId: z.string().nullish(),
            currentHash: z.string(),
            trustStatus: z.string(),
          })
          .passthrough(),
      ),
    }),
  ),
});
type ListedHook = z.infer<typeof HookListSchema>['data'][number]['hooks'][number];

const isAskawayHook = (hook: ListedHook) => /\bhook codex\b/.test(hook.command ?? '');

export interface CodexHookInstallResult {
  /** Set when the askaway-codex plugin carries the hook already: hooks.json was left alone. */
  plugin?: string;
  /** hooks.json, when Askaway's hook was written there. */
  file?: string;
  changed: boolean;
  /** The hook keys trusted now (empty when they already were). */
  trusted: string[];
}

/**
 * Installs Askaway's hook in a Codex home and trusts it, through Codex's own config RPCs (on the running
 * daemon, else a `codex app-server` on stdio): an untrusted hook never runs, and Codex asks about it at
 * the next start. When the askaway-codex plugin is installed it carries the hook, so hooks.json is left
 * alone (two hooks would ask the phone twice) and the plugin's hook is trusted instead.
 */
export async function installCodexHook(
  codexHome: string,
  options: CodexHookInstallOptions & { codexBin?: string; env: Record<string, string | undefined> },
): Promise<CodexHookInstallResult> {
  const file = codexHooksFile(codexHome);
  return withConfigServer(codexHome, { codexBin: options.codexBin ?? 'codex', env: options.env }, async (server) => {
    const list = async () =>
      HookListSchema.parse(await server.request('hooks/list', { cwds: [] }))
        .data.flatMap((entry) => entry.hooks)
        .filter(isAskawayHook);
    const fromPlugin = (await list()).filter((hook) => hook.source === 'plugin');
    let result: Omit<CodexHookInstallResult, 'trusted'>;
    let ours: ListedHook[];
    if (fromPlugin.length > 0) {
      result = { plugin: fromPlugin[0]?.pluginId ?? 'askaway-codex', changed: false };
      ours = fromPlugin;
    } else {
      const { changed } = await writeCodexHooks(file, options);
      result = { file, changed };
      ours = (await list()).filter((hook) => hook.sourcePath === file);
      if (ours.length === 0) throw new Error(`Codex does not list the hook in ${file}`);
    }
    const untrusted = ours.filter((hook) => hook.trustStatus !== 'trusted' && hook.trustStatus !== 'managed');
    if (untrusted.length > 0)
      await server.request('config/batchWrite', {
        edits: [
          {
            keyPath: 'hooks.state',
            value: Object.fromEntries(untrusted.map((hook) => [hook.key, { trusted_hash: hook.currentHash }])),
            mergeStrategy: 'upsert',
          },
        ],
        reloadUserConfig: true,
      });
    return { ...result, trusted: untrusted.map((hook) => hook.key) };
  });
}
