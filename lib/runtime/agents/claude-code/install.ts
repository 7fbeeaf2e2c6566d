import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ASK_USER_QUESTION_TOOL_NAME, EXIT_PLAN_MODE_TOOL_NAME } from '../../../contracts';

/** Claude Code's own limit for a hook, in seconds; our fallback fires before it. */
export const CLAUDE_CODE_HOOK_TIMEOUT_S = 600;
export const HOOK_COMMAND = 'askaway hook claude-code';
export const HOOK_HTTP_PATH = '/hooks/claude-code';

export interface HookInstallOptions {
  /** POST to the host instead of running a command. */
  http?: { url: string };
  allTools?: boolean;
  /** The command Claude Code runs (command hooks). */
  command?: string;
}

type Json = Record<string, unknown>;
type HookEntry = Json & { type: string };
type MatcherGroup = { matcher?: string; hooks: HookEntry[] } & Json;

function hookEntry(options: HookInstallOptions): HookEntry {
  if (options.http) {
    const url = `${options.http.url.replace(/\/+$/, '')}${HOOK_HTTP_PATH}${options.allTools ? '?allTools=1' : ''}`;
    return {
      type: 'http',
      url,
      timeout: CLAUDE_CODE_HOOK_TIMEOUT_S,
      headers: { Authorization: 'Bearer $ASKAWAY_TOKEN' },
      allowedEnvVars: ['ASKAWAY_TOKEN'],
    };
  }
  const command = `${options.command ?? HOOK_COMMAND}${options.allTools ? ' --all-tools' : ''}`;
  return { type: 'command', command, timeout: CLAUDE_CODE_HOOK_TIMEOUT_S };
}

/** The `hooks` block of Claude Code settings that routes questions and plan approvals to Askaway (R11.2). */
export function askawayHookSettings(options: HookInstallOptions = {}): {
  hooks: { PreToolUse: MatcherGroup[]; PermissionRequest: MatcherGroup[] };
} {
  const entry = hookEntry(options);
  return {
    hooks: {
      PreToolUse: [{ matcher: ASK_USER_QUESTION_TOOL_NAME, hooks: [entry] }],
      PermissionRequest: [{ matcher: options.allTools ? '*' : EXIT_PLAN_MODE_TOOL_NAME, hooks: [{ ...entry }] }],
    },
  };
}

/** Ours, whatever options installed it: so a re-install replaces rather than duplicates. */
function isAskawayHook(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const { command, url } = entry as { command?: unknown; url?: unknown };
  return (
    (typeof command === 'string' && command.includes('askaway hook claude-code')) ||
    (typeof url === 'string' && url.includes(HOOK_HTTP_PATH))
  );
}

/**
 * Merges our hooks into existing settings without touching anyone else's:
 * earlier Askaway entries are removed first, so running it twice changes nothing.
 */
export function mergeHookSettings(existing: Json, options: HookInstallOptions = {}): Json {
  const ours = askawayHookSettings(options).hooks;
  const hooks: Record<string, unknown> =
    typeof existing.hooks === 'object' && existing.hooks !== null ? { ...(existing.hooks as Json) } : {};
  for (const [event, groups] of Object.entries(ours)) {
    const current = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    const kept = current.flatMap((group) => {
      if (typeof group !== 'object' || group === null || !Array.isArray((group as MatcherGroup).hooks)) return [group];
      const others = (group as MatcherGroup).hooks.filter((entry) => !isAskawayHook(entry));
      if (others.length === (group as MatcherGroup).hooks.length) return [group];
      return others.length === 0 ? [] : [{ ...(group as MatcherGroup), hooks: others }];
    });
    hooks[event] = [...kept, ...groups];
  }
  return { ...existing, hooks };
}

/** `.claude/settings.json` of a project, or `~/.claude/settings.json` for the user. */
export function settingsPath(scope: { user: boolean; cwd: string; home: string }): string {
  return path.join(scope.user ? scope.home : scope.cwd, '.claude', 'settings.json');
}

/** Reads, merges and writes atomically. Refuses to overwrite a file that is not a JSON object. */
export async function writeHookSettings(file: string, options: HookInstallOptions = {}): Promise<{ changed: boolean }> {
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let existing: Json = {};
  if (text !== undefined && text.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${file} is not valid JSON; fix it or add the hooks by hand (askaway hook install prints them).`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error(`${file} does not hold a JSON object`);
    existing = parsed as Json;
  }
  const next = `${JSON.stringify(mergeHookSettings(existing, options), null, 2)}\n`;
  if (next === text) return { changed: false };
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, next);
  await rename(temp, file);
  return { changed: true };
}
