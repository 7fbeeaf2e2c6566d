import { homedir } from 'node:os';
import { errorMessage } from '../../lib/contracts';
import { claudeCodeHookMain, parseHookFlags } from '../../lib/runtime/agents/claude-code/hook-command';
import { httpHookUrlProblem } from '../../lib/runtime/agents/claude-code/http-hook-address';
import {
  askawayHookSettings,
  settingsPath,
  writeHookSettings,
  type HookInstallOptions,
} from '../../lib/runtime/agents/claude-code/install';
import { resolveHostAddress } from '../../lib/runtime/host-address';
import { type CliCommand } from './types';

export const HOOK_USAGE = `Usage:
  askaway hook claude-code [--timeout 1h] [--all-tools]
  askaway hook install [--write] [--user] [--http] [--all-tools] [--pre-tool-use] [--command "<cmd>"]

claude-code   Claude Code hook (reads the hook JSON on stdin, prints the reply).
              PermissionRequest/AskUserQuestion: the question is in the terminal and on your phone
              at once, and the first answer wins. PermissionRequest/ExitPlanMode: the plan likewise.
              PreToolUse/AskUserQuestion (settings written by an older Askaway): the phone only.
  --timeout   stop waiting for the phone after this long (default: about a day beside Claude Code's
              dialog, which stays open; 540s on PreToolUse, which Claude Code stops after 600s)
  --all-tools also answer permission requests of every other tool from the phone

install       print the Claude Code settings that wire these hooks up
  --write     merge them into .claude/settings.json (keeps your other hooks; safe to repeat)
  --user      with --write: ~/.claude/settings.json instead of the project's
  --http      use the host's HTTP endpoint (needs ASKAWAY_TOKEN in Claude Code's environment);
              refused when the host's address is private (Claude Code only allows loopback and public addresses)
  --command   the command Claude Code runs (default: askaway hook claude-code; run "npm link" in the checkout once)
  --pre-tool-use  AskUserQuestion from a PreToolUse hook, the phone only: for Claude Code older than
              2.0.45 (2.1.21 in print mode), which runs no PermissionRequest hook for it

Environment: ASKAWAY_URL, ASKAWAY_TOKEN, ASKAWAY_DATA_DIR (see askaway mcp --help).
`;

/** How Claude Code (or a closing terminal) stops a hook. */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
/** Time to withdraw the pending question after a stop signal; the connection flushes for at most 1 s. */
const STOP_GRACE_MS = 1_500;

export const hookCommand: CliCommand = {
  name: 'hook',
  summary: 'Claude Code hooks: answer AskUserQuestion and approve plans from your phone',
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === undefined || sub === '--help' || sub === '-h' || rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(HOOK_USAGE);
      return sub === undefined ? 2 : 0;
    }
    if (sub === 'claude-code') return runClaudeCodeHook(rest);
    if (sub === 'install') return runInstall(rest);
    return usageError(`unknown hook "${sub}"`);
  },
};

function usageError(message: string): number {
  process.stderr.write(`askaway hook: ${message}\n\n${HOOK_USAGE}`);
  return 2;
}

async function runClaudeCodeHook(argv: string[]): Promise<number> {
  const flags = parseHookFlags(argv);
  if ('error' in flags) return usageError(flags.error);
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    // Claude Code cancelled the hook (the user answered in the terminal, or it is quitting):
    // withdraw from the phones, but never outlive the grace period doing so.
    stop.abort(new Error(`the hook was stopped (${signal})`));
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
  };
  for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
  try {
    return await claudeCodeHookMain(flags, {
      env: process.env,
      stdin: process.stdin,
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      signal: stop.signal,
      // Transcript timestamps have whole milliseconds.
      startedAt: Math.floor(performance.timeOrigin),
    });
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
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
    else if (arg === '--http') options.http = { url: resolveHostAddress() };
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
