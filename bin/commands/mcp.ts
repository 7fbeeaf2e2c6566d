import { HOST_VERSION } from '../../lib/host';
import { runStdioMcpServer } from '../../lib/runtime/mcp/stdio';
import { type CliCommand } from './types';

/** How a client (or a closing terminal) stops the server. */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
/** Time to withdraw pending questions after a stop signal; the connection flushes for at most 1 s. */
const STOP_GRACE_MS = 1_500;

export const MCP_USAGE = `Usage: askaway mcp

Runs an MCP server on stdin/stdout exposing the AskUserQuestion tool. Each call
is shown on your phone through the running Askaway host; the tool result is the
user's answer.

Environment:
  ASKAWAY_URL       host address (default: from <data dir>/host.json, else http://127.0.0.1:4417)
  ASKAWAY_TOKEN     host token (default: <data dir>/token)
  ASKAWAY_DATA_DIR  data dir (default: ~/.askaway)

Example (Claude Code):
  claude mcp add askaway -- askaway mcp
`;

export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'MCP server (stdio) exposing AskUserQuestion to any MCP client',
  async run(argv) {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(MCP_USAGE);
      return 0;
    }
    if (argv.length > 0) {
      process.stderr.write(`askaway mcp: unexpected argument "${argv[0]}"\n\n${MCP_USAGE}`);
      return 2;
    }
    const stop = new AbortController();
    const onSignal = () => {
      // The client went away: withdraw what is pending from the phones, but never outlive the grace period doing so.
      stop.abort();
      setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
    };
    for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
    try {
      await runStdioMcpServer({ version: HOST_VERSION, signal: stop.signal });
    } finally {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    }
    return 0;
  },
};
