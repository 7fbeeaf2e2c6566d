import { appendFileSync } from 'node:fs';
import { errorMessage, terminalSafe } from '../../lib/contracts';
import { runAcpProxy } from '../../lib/runtime/agents/acp/run-proxy';
import { zedSettings } from '../../lib/runtime/agents/acp/install';
import { installLastResort } from '../../lib/runtime/last-resort';
import { type CliCommand } from './types';

export const ACP_USAGE = `Usage: askaway acp [--name <label>] -- <agent command and its arguments>

Stands between your editor and an ACP agent (Agent Client Protocol: Zed, JetBrains, Neovim …):
the editor starts \`askaway acp -- gemini --acp\` where it started \`gemini --acp\`. Every message
goes through unchanged; each permission prompt and form the agent sends also shows on your
phone, beside the editor's own dialog, and the first answer wins. With the hub unreachable the
editor's session is exactly as without Askaway.

Options:
  --name <label>  what the phone calls the agent (default: the name the agent gives itself)
  -h, --help      Show this help

In Zed's settings.json, for example:
${zedSettings('Gemini CLI', ['gemini', '--acp'])}

Environment: ASKAWAY_URL, ASKAWAY_TOKEN, ASKAWAY_DATA_DIR (see askaway mcp --help);
ASKAWAY_ACP_LOG: a file for the proxy's log lines (default: stderr, which editors keep as the agent's log).
`;

/** `askaway acp …`'s arguments: the label and the agent's command line after `--`. */
export function parseAcpArgs(
  argv: readonly string[],
): { name?: string; agent: string[] } | { problem: string } | 'help' {
  let name: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--') {
      const agent = argv.slice(index + 1);
      if (agent.length === 0) return { problem: 'no agent command after --' };
      return { ...(name !== undefined ? { name } : {}), agent };
    }
    if (arg === '-h' || arg === '--help') return 'help';
    if (arg === '--name') {
      const next = argv[index + 1];
      if (next === undefined || next.trim() === '' || next === '--') return { problem: '--name needs a label' };
      if (next.length > 80) return { problem: '--name takes at most 80 characters' };
      name = next;
      index += 1;
      continue;
    }
    return { problem: `unexpected argument "${arg}" (the agent's command goes after --)` };
  }
  return { problem: 'no agent command: askaway acp [--name <label>] -- <agent command>' };
}

export const acpCommand: CliCommand = {
  name: 'acp',
  summary: 'an ACP agent in your editor (Gemini CLI, Copilot, …): its prompts on your phone too',
  async run(argv) {
    const parsed = parseAcpArgs(argv);
    if (parsed === 'help') {
      process.stdout.write(ACP_USAGE);
      return 0;
    }
    if ('problem' in parsed) {
      process.stderr.write(`askaway acp: ${parsed.problem}\n\n${ACP_USAGE}`);
      return 2;
    }
    const controller = new AbortController();
    const stop = () => controller.abort();
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, stop);
    // The agent's or the editor's messages must not stop the proxy through a bug of ours (R12.18); the line goes
    // where the proxy's own do: ASKAWAY_ACP_LOG, else stderr (never stdout, the editor's channel).
    const undoLastResort = installLastResort((line) => {
      const file = process.env.ASKAWAY_ACP_LOG;
      try {
        if (file) appendFileSync(file, `${terminalSafe(line)}\n`, { mode: 0o600 });
        else process.stderr.write(`${terminalSafe(line)}\n`);
      } catch {
        // A log that cannot be written must not stop the editor's session.
      }
    });
    try {
      return await runAcpProxy({
        agent: parsed.agent,
        signal: controller.signal,
        ...(parsed.name ? { name: parsed.name } : {}),
      });
    } catch (error) {
      process.stderr.write(`askaway acp: ${errorMessage(error)}\n`);
      return 1;
    } finally {
      undoLastResort();
    }
  },
};
