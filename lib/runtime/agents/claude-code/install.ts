import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ASK_USER_QUESTION_TOOL_NAME, EXIT_PLAN_MODE_TOOL_NAME } from '../../../contracts';
import { AGENT_CONFIG_MAX_BYTES, readRegularText } from '../../safe-file';

/** Claude Code's own default limit for a hook, in seconds: the old PreToolUse path's (`--pre-tool-use`). */
export const CLAUDE_CODE_HOOK_TIMEOUT_S = 600;
/**
 * The PermissionRequest hooks' limit (R11.8), a day: Claude Code's dialog stays open beside the hook and
 * outlives it, so the card should live as long as the question does. Claude Code SIGTERMs the hook on Esc,
 * at the session's end or at this limit, never sooner. Longer is not safer: the limit becomes a timer,
 * and timers past 2^31 ms (24.8 days) fire at once.
 */
export const CLAUDE_CODE_DIALOG_HOOK_TIMEOUT_S = 86_400;
/**
 * How long the form waits for the phone (`--form-wait`). Claude Code shows nothing of the form while the hook
 * runs, only a spinner, so this is how long a person at the desk waits before the form appears there. And an
 * MCP server on the official TypeScript SDK gives up on an elicitation after 60 s (its default request
 * timeout; Claude Code then stops the hook and shows no form): 30 s leaves the terminal the other half.
 */
export const DEFAULT_FORM_WAIT_MS = 30_000;
/**
 * The first Claude Code with the Elicitation hook (R11.11). Older ones skip a whole settings file that names an
 * event they do not know, its permissions and every other hook with it (2.1.52 and 2.1.62: no hook of it ran).
 */
export const ELICITATION_HOOK_SINCE = '2.1.63';
/**
 * How much longer than the form's wait Claude Code gives the Elicitation hook: time to start Node, reach the
 * host and withdraw the card, so the card says the form moved to the terminal before Claude Code shows it.
 */
export const FORM_HOOK_MARGIN_S = 30;
export const HOOK_COMMAND = 'askaway hook claude-code';
export const HOOK_HTTP_PATH = '/hooks/claude-code';

export interface HookInstallOptions {
  /** POST to the host instead of running a command. */
  http?: { url: string };
  allTools?: boolean;
  /**
   * Answer AskUserQuestion from a PreToolUse hook, as before (R11.2): the terminal shows nothing while the
   * phone has the question, for whoever wants that. Claude Code reads such an answer from 2.1.85 on.
   */
  preToolUse?: boolean;
  /** The command Claude Code runs (command hooks). */
  command?: string;
  /**
   * MCP forms on the phone through an Elicitation hook (R11.11); default on. Off for Claude Code before
   * ELICITATION_HOOK_SINCE, and with `preToolUse` (settings for old Claude Code).
   */
  forms?: boolean;
  /** `--form-wait` for the Elicitation hook; its timeout is this plus FORM_HOOK_MARGIN_S. */
  formWaitMs?: number;
  /**
   * Finished turns on the phone (R19.50): the Stop and StopFailure hooks; default on. Command hooks only: the HTTP
   * hook cannot ask whether the person is away, and Claude Code before the Stop payload's message has none to show.
   */
  finishedTurns?: boolean;
  /** `--no-reply` (R19.53): finished turns are shown and notified, and Claude Code never waits for a reply. */
  noReply?: boolean;
  /** `--reply-wait`: how long Claude Code holds a finished turn for the phone while you are away. */
  replyWaitMs?: number;
}

type Json = Record<string, unknown>;
type HookEntry = Json & { type: string };
type MatcherGroup = { matcher?: string; hooks: HookEntry[] } & Json;

function hookEntry(options: HookInstallOptions, timeout: number, form = false): HookEntry {
  const formWait = form && options.formWaitMs !== undefined ? `${Math.ceil(options.formWaitMs / 1000)}s` : undefined;
  if (options.http) {
    const query = form ? (formWait ? `?formWait=${formWait}` : '') : options.allTools ? '?allTools=1' : '';
    const url = `${options.http.url.replace(/\/+$/, '')}${HOOK_HTTP_PATH}${query}`;
    return {
      type: 'http',
      url,
      timeout,
      headers: { Authorization: 'Bearer $ASKAWAY_TOKEN' },
      allowedEnvVars: ['ASKAWAY_TOKEN'],
    };
  }
  const flags = form ? (formWait ? ` --form-wait ${formWait}` : '') : options.allTools ? ' --all-tools' : '';
  return { type: 'command', command: `${options.command ?? HOOK_COMMAND}${flags}`, timeout };
}

/** The Elicitation hook (R11.11), for every MCP server: it runs before Claude Code shows the server's form. */
function formHook(options: HookInstallOptions): Record<string, MatcherGroup[]> {
  if (options.forms === false || options.preToolUse) return {};
  const waitS = Math.ceil((options.formWaitMs ?? DEFAULT_FORM_WAIT_MS) / 1000);
  return { Elicitation: [{ hooks: [hookEntry(options, waitS + FORM_HOOK_MARGIN_S, true)] }] };
}

/** Claude Code's own limit for the waiting Stop hook: the wait, and a minute to say on the phone why it ends. */
function replyWaitTimeoutS(options: HookInstallOptions): number {
  if (options.replyWaitMs === undefined) return CLAUDE_CODE_HOOK_TIMEOUT_S;
  return Math.ceil(options.replyWaitMs / 1000) + 60;
}

/**
 * The finished-turn hooks (R19.50): a blocking Stop hook that holds the turn for a reply while the person is away
 * (and ends at once otherwise), and a background (`async`) one that shows the turn with no reply when nobody waits
 * (`--no-reply`: only that one), which also shows failed turns (StopFailure). Background hooks never hold the
 * terminal; Claude Code reads no output of theirs.
 */
function finishedTurnHooks(options: HookInstallOptions): Record<string, MatcherGroup[]> {
  if (options.finishedTurns === false || options.http || options.preToolUse) return {};
  const command = options.command ?? HOOK_COMMAND;
  const card: HookEntry = {
    type: 'command',
    command: `${command} --finished-card${options.noReply ? ' --no-reply' : ''}`,
    async: true,
    timeout: CLAUDE_CODE_DIALOG_HOOK_TIMEOUT_S,
  };
  const wait: HookEntry = {
    type: 'command',
    command: `${command}${options.replyWaitMs === undefined ? '' : ` --reply-wait ${Math.ceil(options.replyWaitMs / 1000)}s`}`,
    timeout: replyWaitTimeoutS(options),
  };
  return {
    Stop: [{ hooks: options.noReply ? [card] : [wait, card] }],
    StopFailure: [{ hooks: [card] }],
  };
}

/** Whether a Claude Code version (`claude --version`: "2.1.332 (Claude Code)") runs the Elicitation hook. */
export function runsElicitationHook(version: string): boolean | undefined {
  const parts = /^(\d+)\.(\d+)\.(\d+)/.exec(version.trim())?.slice(1).map(Number);
  if (!parts) return undefined;
  const since = ELICITATION_HOOK_SINCE.split('.').map(Number);
  for (let index = 0; index < 3; index += 1) {
    const difference = (parts[index] ?? 0) - (since[index] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return true;
}

/**
 * The `hooks` block of Claude Code settings that routes questions, plan approvals, MCP forms and finished turns to
 * Askaway (R11.2, R11.8, R11.11, R19.50): one PermissionRequest hook for AskUserQuestion and ExitPlanMode (every tool
 * with `allTools`), which runs while Claude Code shows its own dialog, the Elicitation hook, and the Stop hooks. With `preToolUse`,
 * AskUserQuestion the old way (and no Elicitation hook: that Claude Code has none).
 */
export function askawayHookSettings(options: HookInstallOptions = {}): { hooks: Record<string, MatcherGroup[]> } {
  const dialog = hookEntry(options, CLAUDE_CODE_DIALOG_HOOK_TIMEOUT_S);
  if (options.preToolUse) {
    return {
      hooks: {
        PreToolUse: [{ matcher: ASK_USER_QUESTION_TOOL_NAME, hooks: [hookEntry(options, CLAUDE_CODE_HOOK_TIMEOUT_S)] }],
        PermissionRequest: [{ matcher: options.allTools ? '*' : EXIT_PLAN_MODE_TOOL_NAME, hooks: [dialog] }],
        ...formHook(options),
      },
    };
  }
  const matcher = options.allTools ? '*' : `${ASK_USER_QUESTION_TOOL_NAME}|${EXIT_PLAN_MODE_TOOL_NAME}`;
  return {
    hooks: { PermissionRequest: [{ matcher, hooks: [dialog] }], ...formHook(options), ...finishedTurnHooks(options) },
  };
}

/**
 * Ours, whatever options or `--command` installed it (`askaway hook claude-code`, `node …/dist/cli.js hook
 * claude-code`): so a re-install replaces rather than duplicates.
 */
function isAskawayHook(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const { command, url } = entry as { command?: unknown; url?: unknown };
  return (
    (typeof command === 'string' && /\bhook claude-code\b/.test(command)) ||
    (typeof url === 'string' && url.includes(HOOK_HTTP_PATH))
  );
}

/**
 * Merges our hooks into existing settings without touching anyone else's: earlier Askaway entries are
 * removed first from every event (the PreToolUse entry of an older install included, R11.8; an Elicitation
 * entry when forms are now off, R11.11), so running it twice changes nothing and an upgrade moves
 * AskUserQuestion to PermissionRequest.
 */
export function mergeHookSettings(existing: Json, options: HookInstallOptions = {}): Json {
  const ours = askawayHookSettings(options).hooks;
  const hooks: Record<string, unknown> =
    typeof existing.hooks === 'object' && existing.hooks !== null ? { ...(existing.hooks as Json) } : {};
  for (const event of new Set([...Object.keys(hooks), ...Object.keys(ours)])) {
    const current = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : undefined;
    const kept = (current ?? []).flatMap((group) => {
      if (typeof group !== 'object' || group === null || !Array.isArray((group as MatcherGroup).hooks)) return [group];
      const others = (group as MatcherGroup).hooks.filter((entry) => !isAskawayHook(entry));
      if (others.length === (group as MatcherGroup).hooks.length) return [group];
      return others.length === 0 ? [] : [{ ...(group as MatcherGroup), hooks: others }];
    });
    const next = [...kept, ...(ours[event] ?? [])];
    if (current === undefined && next.length === 0) continue;
    // An event left with nothing but ours removed goes: Claude Code needs no empty list.
    if (next.length === 0) delete hooks[event];
    else hooks[event] = next;
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
    text = await readRegularText(file, { maxBytes: AGENT_CONFIG_MAX_BYTES });
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
