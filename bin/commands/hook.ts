import { execFile } from 'node:child_process';
import { homedir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { errorMessage } from '../../lib/contracts';
import { claudeCodeHookMain, parseHookFlags } from '../../lib/runtime/agents/claude-code/hook-command';
import { httpHookUrlProblem } from '../../lib/runtime/agents/claude-code/http-hook-address';
import {
  askawayHookSettings,
  ELICITATION_HOOK_SINCE,
  runsElicitationHook,
  settingsPath,
  writeHookSettings,
  type HookInstallOptions,
} from '../../lib/runtime/agents/claude-code/install';
import { parseCodexHookFlags, codexHookMain } from '../../lib/runtime/agents/codex/hook-command';
import { askawayCodexHooks, defaultCodexHome, installCodexHook } from '../../lib/runtime/agents/codex/install';
import { parseDuration } from '../../lib/runtime/duration';
import { resolveHostAddress } from '../../lib/runtime/host-address';
import { parseFlags } from './parse-flags';

const execFileAsync = promisify(execFile);
import { type CliCommand } from './types';

export const HOOK_USAGE = `Usage:
  askaway hook claude-code [--timeout 1h] [--form-wait 30s] [--all-tools] [--reply-wait 9m]
                           [--finished-card] [--no-reply]
  askaway hook install [--write] [--user] [--http] [--all-tools] [--pre-tool-use] [--form-wait 30s] [--no-forms]
                       [--reply-wait 9m] [--no-reply] [--no-finished-turns] [--command "<cmd>"]
  askaway hook codex [--timeout 30s]
  askaway hook install --agent codex [--write] [--codex-home <dir>] [--timeout 30s] [--command "<cmd>"]

claude-code   Claude Code hook (reads the hook JSON on stdin, prints the reply).
              PermissionRequest/AskUserQuestion: the question is in the terminal and on your phone
              at once, and the first answer wins. PermissionRequest/ExitPlanMode: the plan likewise.
              PreToolUse/AskUserQuestion (settings written by an older Askaway): the phone only.
              Elicitation (an MCP server's form, or a page to open): on your phone first, since
              Claude Code shows its own form only once the hook is done; after --form-wait the
              card leaves ("moved to the terminal") and the form appears in the terminal.
              Stop (a finished turn): on your phone with what Claude said last. While you are away
              (askaway away, or the phone's Settings), Claude Code holds the turn for your reply
              there, which it then takes as the next instruction; a prompt typed in the terminal
              goes first. At the desk the turn ends at once and a background hook (--finished-card)
              shows it without a reply box. StopFailure: a failed turn, shown the same way.
  --timeout   stop waiting for the phone after this long (default: about a day beside Claude Code's
              dialog, which stays open; 540s on PreToolUse, which Claude Code stops after 600s)
  --form-wait how long an MCP form waits for the phone (default 30s): the terminal shows only a
              spinner meanwhile, and a server on the official TypeScript SDK gives up after 60s
  --all-tools also answer permission requests of every other tool from the phone
  --reply-wait  how long Claude Code holds a finished turn for your reply while you are away
              (default 540s: Claude Code stops a hook after 600s unless its settings say longer)
  --finished-card  the background Stop hook: shows the finished turn, holds nothing
  --no-reply  finished turns are shown and notified, never held for a reply

install       print the Claude Code settings that wire these hooks up
  --write     merge them into .claude/settings.json (keeps your other hooks; safe to repeat)
  --user      with --write: ~/.claude/settings.json instead of the project's
  --http      use the host's HTTP endpoint (needs ASKAWAY_TOKEN in Claude Code's environment);
              refused when the host's address is private (Claude Code only allows loopback and public addresses)
  --command   the command Claude Code runs (default: askaway hook claude-code; run "npm link" in the checkout once)
  --pre-tool-use  AskUserQuestion from a PreToolUse hook, as Askaway did before: the phone only, the
              terminal's dialog once the hook gives up (Claude Code 2.1.85 and later)
  --form-wait the Elicitation hook's --form-wait (its timeout is 30s more)
  --no-forms  leave the Elicitation hook out: MCP forms stay in the terminal. Left out by itself when
              "claude --version" is older than 2.1.63, which skips a settings file that names it
  --reply-wait  the waiting Stop hook's --reply-wait (its timeout is a minute more)
  --no-reply  finished turns on the phone without a reply box: only the background Stop hook
  --no-finished-turns  no Stop hooks: finished turns stay in the terminal (also with --http and
              --pre-tool-use, which cannot carry them)

codex         Codex PermissionRequest hook, for sessions the Codex bridge cannot see
              (codex --no-daemon, "Run without daemon this time"): the approval is on your
              phone for --timeout (default 30s), then Codex's own prompt follows. Under a daemon
              that a bridge serves it steps aside at once (the bridge carries the prompt).
install --agent codex
              print the hooks.json that wires it up; with --write, merge it into
              $CODEX_HOME/hooks.json (default ~/.codex; keeps your other hooks) and trust it
              through Codex itself (\`codex\` on PATH, or the running daemon), as /hooks does
  --codex-home  the Codex home (default CODEX_HOME, else ~/.codex)
  --timeout     how long the hook waits for the phone (default 30s)
  --command     the command Codex runs (default: askaway hook codex)

Environment: ASKAWAY_URL, ASKAWAY_TOKEN, ASKAWAY_DATA_DIR (see askaway mcp --help).
`;

/** How Claude Code (or a closing terminal) stops a hook. */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
/** Time to withdraw the pending question after a stop signal; the connection flushes for at most 1 s. */
const STOP_GRACE_MS = 1_500;

export const hookCommand: CliCommand = {
  name: 'hook',
  summary: 'Agent hooks: Claude Code questions, plans and MCP forms, Codex approvals outside its daemon, on your phone',
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === undefined || sub === '--help' || sub === '-h' || rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(HOOK_USAGE);
      return sub === undefined ? 2 : 0;
    }
    if (sub === 'claude-code') return runClaudeCodeHook(rest);
    if (sub === 'codex') return runCodexHook(rest);
    if (sub === 'install') {
      const agent = rest.indexOf('--agent');
      if (agent === -1) return runInstall(rest);
      const name = rest[agent + 1];
      const others = [...rest.slice(0, agent), ...rest.slice(agent + 2)];
      if (name === 'codex') return runCodexInstall(others);
      if (name === 'claude-code') return runInstall(others);
      return usageError(`--agent takes claude-code or codex, got "${name ?? ''}"`);
    }
    return usageError(`unknown hook "${sub}"`);
  },
};

function usageError(message: string): number {
  process.stderr.write(`askaway hook: ${message}\n\n${HOOK_USAGE}`);
  return 2;
}

/**
 * Runs a hook with the signals its agent (or a closing terminal) stops it with: `signal` aborts, so the
 * pending card is withdrawn from the phones, and the process never outlives the grace period doing so.
 */
async function withStopSignals(run: (signal: AbortSignal) => Promise<number>): Promise<number> {
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    stop.abort(new Error(`the hook was stopped (${signal})`));
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
  };
  for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
  try {
    return await run(stop.signal);
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  }
}

async function runClaudeCodeHook(argv: string[]): Promise<number> {
  const flags = parseHookFlags(argv);
  if ('error' in flags) return usageError(flags.error);
  // Claude Code cancels the hook when the user answered in the terminal, or when it is quitting.
  return withStopSignals((signal) =>
    claudeCodeHookMain(flags, {
      env: process.env,
      stdin: process.stdin,
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      signal,
      // Transcript timestamps have whole milliseconds.
      startedAt: Math.floor(performance.timeOrigin),
    }),
  );
}

async function runCodexHook(argv: string[]): Promise<number> {
  const flags = parseCodexHookFlags(argv);
  if ('error' in flags) return usageError(flags.error);
  // Codex stops a hook at its timeout, or when the turn ends.
  return withStopSignals((signal) =>
    codexHookMain(flags, {
      env: process.env,
      stdin: process.stdin,
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      parentPid: process.ppid,
      signal,
    }),
  );
}

async function runCodexInstall(argv: string[]): Promise<number> {
  const parsed = parseFlags('hook', HOOK_USAGE, argv, {
    write: { type: 'boolean' },
    'codex-home': { type: 'string' },
    timeout: { type: 'string' },
    command: { type: 'string' },
  });
  if ('exit' in parsed) return parsed.exit;
  const { values } = parsed;
  const timeoutMs = values.timeout === undefined ? undefined : parseDuration(values.timeout);
  if (timeoutMs === null) return usageError('--timeout needs a duration such as 30s or 2m');
  const options = { command: values.command, timeoutMs };
  if (!values.write) {
    process.stdout.write(`${JSON.stringify(askawayCodexHooks(options), null, 2)}\n`);
    return 0;
  }
  const home = values['codex-home'] ? path.resolve(values['codex-home']) : defaultCodexHome(process.env);
  try {
    const result = await installCodexHook(home, { ...options, env: process.env });
    if (result.plugin)
      process.stdout.write(`The ${result.plugin} plugin carries Askaway's hook: hooks.json left alone.\n`);
    else
      process.stdout.write(
        result.changed
          ? `Askaway's Codex hook written to ${result.file}\n`
          : `${result.file} already has Askaway's hook\n`,
      );
    process.stdout.write(
      result.trusted.length > 0 ? 'Trusted it in Codex (as /hooks does).\n' : 'Codex already trusts it.\n',
    );
    return 0;
  } catch (error) {
    process.stderr.write(
      `askaway hook install: ${errorMessage(error)}\n` +
        'Codex runs a hook only once trusted: with `codex` on PATH this command trusts it; else start Codex and choose ' +
        '"Trust all and continue", or /hooks → t. Without it, write the hook yourself: askaway hook install --agent codex\n',
    );
    return 1;
  }
}

/** What `claude --version` says on this PATH, or undefined (not installed, or it did not answer in time). */
async function claudeCodeVersion(): Promise<string | undefined> {
  try {
    const { stdout } = await execFileAsync('claude', ['--version'], {
      timeout: 10_000,
      env: { ...process.env, DISABLE_AUTOUPDATER: '1' },
    });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

async function runInstall(argv: string[]): Promise<number> {
  const options: HookInstallOptions = {};
  let write = false;
  let user = false;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--write') write = true;
    else if (arg === '--user') user = true;
    else if (arg === '--all-tools') options.allTools = true;
    else if (arg === '--pre-tool-use') options.preToolUse = true;
    else if (arg === '--no-forms') options.forms = false;
    else if (arg === '--no-reply') options.noReply = true;
    else if (arg === '--no-finished-turns') options.finishedTurns = false;
    else if (arg === '--reply-wait') {
      const value = parseDuration(argv[index + 1] ?? '');
      if (value === null || value < 1_000) return usageError('--reply-wait needs a duration such as 9m or 1h');
      options.replyWaitMs = value;
      index += 1;
    } else if (arg === '--form-wait') {
      const value = parseDuration(argv[index + 1] ?? '');
      if (value === null) return usageError('--form-wait needs a duration such as 30s or 2m');
      options.formWaitMs = value;
      index += 1;
    } else if (arg === '--http') options.http = { url: resolveHostAddress() };
    else if (arg === '--command') {
      const value = argv[index + 1];
      if (!value) return usageError('--command needs the command line Claude Code should run');
      options.command = value;
      index += 1;
    } else return usageError(`unexpected argument "${arg}"`);
  }
  if (user && !write) return usageError('--user only applies with --write');
  const blocked = options.http ? await httpHookUrlProblem(options.http.url) : null;
  if (blocked !== null) {
    process.stderr.write(
      `askaway hook install: Claude Code refuses HTTP hooks to addresses outside the public internet ` +
        `(loopback excepted), and ${blocked}, so this hook would never run.\n` +
        'Use the command hook instead: askaway hook install (without --http) runs `askaway hook claude-code`, ' +
        'which reaches the host at any address. Or point ASKAWAY_URL at the host on loopback (http://127.0.0.1:<port>).\n',
    );
    return 2;
  }
  if (options.forms !== false && !options.preToolUse) {
    const version = await claudeCodeVersion();
    if (version !== undefined && runsElicitationHook(version) === false) {
      options.forms = false;
      process.stderr.write(
        `Claude Code ${version.split(' ')[0]} has no Elicitation hook (${ELICITATION_HOOK_SINCE} added it) and would skip ` +
          'a settings file that names one, so MCP forms stay in its terminal. Update Claude Code, then run this again.\n',
      );
    }
  }
  if (!write) {
    process.stdout.write(`${JSON.stringify(askawayHookSettings(options), null, 2)}\n`);
    if (options.http)
      process.stderr.write('Claude Code needs ASKAWAY_TOKEN in its environment for the Authorization header.\n');
    return 0;
  }
  const file = settingsPath({ user, cwd: process.cwd(), home: process.env.HOME ?? homedir() });
  try {
    const { changed } = await writeHookSettings(file, options);
    process.stdout.write(changed ? `Askaway hooks written to ${file}\n` : `${file} already has these Askaway hooks\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`askaway hook install: ${errorMessage(error)}\n`);
    return 1;
  }
}
