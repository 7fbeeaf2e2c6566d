import { errorMessage, terminalSafe } from '../../lib/contracts';
import { startCodexBridge, type CodexBridge } from '../../lib/runtime/agents/codex/bridge';
import { defaultCodexHome } from '../../lib/runtime/agents/codex/codex-home';
import { installLastResort } from '../../lib/runtime/last-resort';
import { resolveDataDir } from '../../lib/runtime/host-address';
import { runtimeClientProvider } from '../../lib/runtime/runtime-client-provider';
import { parseFlags } from './parse-flags';
import { type CliCommand } from './types';

export const CODEX_USAGE = `Usage: askaway codex [--codex-home <dir>]... [--data-dir <dir>]

The Codex bridge: carries Codex's questions, approvals and MCP forms to your phone, and
the phone's answers back, while Codex's terminal keeps its own prompt (the first answer
wins). It attaches to the Codex daemon of each Codex home — the shared background server
every Codex TUI runs on — joins every thread, and re-attaches by itself when the daemon
restarts. It never starts a daemon (a Codex TUI does). Runs until stopped (Ctrl-C).

\`askaway start\` runs this bridge for the default Codex home already; run \`askaway codex\`
on a machine that joined a hub (\`askaway join\`), or for other Codex homes. One bridge
serves a home at a time. \`askaway status\` says whether it is attached, and to how many threads.

Options:
  --codex-home <dir>  a Codex home to serve (repeatable; default: CODEX_HOME, else ~/.codex)
  --data-dir <dir>    this machine's Askaway data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  -h, --help          Show this help

Environment: ASKAWAY_URL, ASKAWAY_TOKEN, ASKAWAY_DATA_DIR (see askaway mcp --help).
Sessions it cannot see: \`codex --no-daemon\`, \`codex exec\` (see askaway hook --help).
`;

const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
/** Time to withdraw pending cards after a stop signal; the connection flushes for at most 1 s. */
const STOP_GRACE_MS = 1_500;

export interface CodexCommandIo {
  env: Record<string, string | undefined>;
  log: (line: string) => void;
  /** Resolves when the bridge should stop. */
  stopped: Promise<void>;
}

/** The command without process wiring: starts the bridge, waits for `stopped`, stops it. */
export async function codexCommandMain(argv: string[], io: CodexCommandIo): Promise<number> {
  const parsed = parseFlags('codex', CODEX_USAGE, argv, {
    'codex-home': { type: 'string', multiple: true },
    'data-dir': { type: 'string' },
  });
  if ('exit' in parsed) return parsed.exit;
  const env = parsed.values['data-dir'] ? { ...io.env, ASKAWAY_DATA_DIR: parsed.values['data-dir'] } : io.env;
  const homes = parsed.values['codex-home']?.length ? parsed.values['codex-home'] : [defaultCodexHome(env)];
  const provider = runtimeClientProvider({ env });
  let bridge: CodexBridge;
  try {
    // Fails early when there is no token or machine credential at all.
    provider.get('codex bridge');
    bridge = startCodexBridge({
      homes,
      runtime: () => provider.get('codex bridge'),
      dataDir: resolveDataDir(env),
      owner: 'askaway codex',
      log: io.log,
    });
  } catch (error) {
    process.stderr.write(`askaway codex: ${errorMessage(error)}\n`);
    await provider.close();
    return 1;
  }
  io.log(`codex: bridging ${homes.join(', ')}`);
  await io.stopped;
  await bridge.stop();
  await provider.close();
  return 0;
}

export const codexCommand: CliCommand = {
  name: 'codex',
  summary: "Codex bridge: Codex's questions, approvals and MCP forms on your phone",
  async run(argv) {
    let onSignal: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => {
      onSignal = () => {
        resolve();
        setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
      };
    });
    for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
    const log = (line: string) => process.stderr.write(`${new Date().toTimeString().slice(0, 8)} ${line}\n`);
    // A daemon's messages must not stop the bridge through a bug of ours (R12.18).
    const undoLastResort = installLastResort((line) => log(terminalSafe(line)));
    try {
      return await codexCommandMain(argv, { env: process.env, log, stopped });
    } finally {
      undoLastResort();
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    }
  },
};
