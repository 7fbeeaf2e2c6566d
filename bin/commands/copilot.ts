import { bridgeLog, launchCopilot } from '../../lib/runtime/agents/copilot/launch';
import { installLastResort } from '../../lib/runtime/last-resort';
import { type CliCommand } from './types';

export const COPILOT_USAGE = `Usage: askaway copilot [copilot's own arguments]

Starts your GitHub Copilot CLI (\`copilot\` on PATH, or COPILOT_BIN) in this terminal, exactly as you would,
with its permission prompts and ask_user forms also on your phone: the first answer wins, in the terminal or
on the phone. Askaway adds \`--ui-server --port <port>\` (a free port on 127.0.0.1, told to nobody else) and
attaches to it once it finds the Copilot it started there (else it relays nothing); nothing in ~/.copilot is
changed. When the hub cannot be reached, Copilot runs as without Askaway. It exits with Copilot's exit code.
Non-interactive runs (-p), subcommands, --acp and a --port of your own start Copilot unchanged.

To make it the default: alias copilot='askaway copilot'

Environment: ASKAWAY_URL, ASKAWAY_TOKEN, ASKAWAY_DATA_DIR (see askaway mcp --help); a joined machine asks
through its hub. ASKAWAY_COPILOT_LOG: a file for the bridge's log lines (default: none, the TUI owns the
terminal). COPILOT_BIN: the copilot to start.
`;

/** After Copilot exited and the cards were withdrawn, nothing may keep this process (and the terminal) waiting. */
const EXIT_GRACE_MS = 1_500;

export const copilotCommand: CliCommand = {
  name: 'copilot',
  summary: 'GitHub Copilot CLI: starts it with its prompts and forms on your phone too',
  async run(argv) {
    if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
      process.stdout.write(COPILOT_USAGE);
      return 0;
    }
    // Copilot's messages must not stop the bridge (and Copilot's terminal with it) through a bug of ours (R12.18);
    // the line goes where the bridge's do (ASKAWAY_COPILOT_LOG), the TUI owns the terminal.
    const undoLastResort = installLastResort(bridgeLog(process.env));
    let code: number;
    try {
      code = await launchCopilot({
        args: argv,
        env: process.env,
        cwd: process.cwd(),
        stderr: (text) => process.stderr.write(text),
      });
    } finally {
      undoLastResort();
    }
    setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
    return code;
  },
};
