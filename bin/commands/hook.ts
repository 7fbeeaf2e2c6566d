import { homedir } from 'node:os';
import { errorMessage } from '../../lib/contracts';
import { handleClaudeCodeHook, DEFAULT_HOOK_TIMEOUT_MS } from '../../lib/runtime/claude-code/handle-hook';
import {
  askawayHookSettings,
  settingsPath,
  writeHookSettings,
  type HookInstallOptions,
} from '../../lib/runtime/claude-code/settings';
import { parseDuration } from '../../lib/runtime/duration';
import { resolveHostAddress } from '../../lib/runtime/host-address';
import { runtimeClientProvider } from '../../lib/runtime/runtime-client-provider';
import { type CliCommand } from './types';

export const HOOK_USAGE = `Usage:
  askaway hook claude-code [--timeout 540s] [--all-tools]
  askaway hook install [--write] [--user] [--http] [--all-tools] [--command "<cmd>"]

claude-code   Claude Code hook (reads the hook JSON on stdin, prints the reply).
              PreToolUse/AskUserQuestion: the question is answered on your phone.
              PermissionRequest/ExitPlanMode: the plan is approved on your phone.
  --timeout   give up and let the terminal prompt take over after this long
              (default 540s: Claude Code stops a hook after 600s)
  --all-tools also answer permission requests of every other tool from the phone

install       print the Claude Code settings that wire these hooks up
  --write     merge them into .claude/settings.json (keeps your other hooks; safe to repeat)
  --user      with --write: ~/.claude/settings.json instead of the project's
  --http      use the host's HTTP endpoint (needs ASKAWAY_TOKEN in Claude Code's environment)
  --command   the command Claude Code runs (default: askaway hook claude-code; run "npm link" in the checkout once)

Environment: ASKAWAY_URL, ASKAWAY_TOKEN, ASKAWAY_DATA_DIR (see askaway mcp --help).
`;

const MAX_STDIN_BYTES = 5 * 1024 * 1024;
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
  let timeoutMs = DEFAULT_HOOK_TIMEOUT_MS;
  let allTools = false;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--all-tools') allTools = true;
    else if (arg === '--timeout') {
      const value = parseDuration(argv[index + 1] ?? '');
      if (value === null) return usageError('--timeout needs a duration such as 540s or 9m');
      timeoutMs = value;
      index += 1;
    } else return usageError(`unexpected argument "${arg}"`);
  }

  let payload: unknown;
  try {
    payload = JSON.parse(await readStdin());
  } catch (error) {
    // A hook that fails must not block the agent: say why on stderr, reply nothing.
    process.stderr.write(`askaway hook: could not read the hook JSON on stdin (${errorMessage(error)})\n`);
    return 0;
  }
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    // Claude Code cancelled the hook (the user answered in the terminal, or it is quitting):
    // withdraw from the phones, but never outlive the grace period doing so.
    stop.abort(new Error(`the hook was stopped (${signal})`));
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
  };
  for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
  const runtime = runtimeClientProvider();
  try {
    const output = await handleClaudeCodeHook(payload, {
      runtime,
      timeoutMs,
      allTools,
      signal: stop.signal,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    // Nobody reads a cancelled hook's reply, and writing to a closed pipe would crash before the withdrawal is sent.
    if (!stop.signal.aborted && Object.keys(output).length > 0) process.stdout.write(`${JSON.stringify(output)}\n`);
    return 0;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    await runtime.close();
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_STDIN_BYTES) throw new Error(`more than ${MAX_STDIN_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
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
    else if (arg === '--http') options.http = { url: resolveHostAddress() };
    else if (arg === '--command') {
      const value = argv[index + 1];
      if (!value) return usageError('--command needs the command line Claude Code should run');
      options.command = value;
      index += 1;
    } else return usageError(`unexpected argument "${arg}"`);
  }
  if (user && !write) return usageError('--user only applies with --write');
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
