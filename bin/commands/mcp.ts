import { HOST_VERSION } from '../../lib/host';
import { runStdioMcpServer } from '../../lib/runtime/mcp/stdio';
import { untilStopped } from './stop-signals';
import { type CliCommand } from './types';

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
    // The client went away: withdraw what is pending from the phones, but never outlive the grace period doing so.
    await untilStopped((signal) => runStdioMcpServer({ version: HOST_VERSION, signal }));
    return 0;
  },
};
