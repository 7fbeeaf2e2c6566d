import { errorMessage } from '../lib/contracts';
import { askCommand } from './commands/ask';
import { hookCommand } from './commands/hook';
import { mcpCommand } from './commands/mcp';
import { startCommand } from './commands/start';
import { type CliCommand } from './commands/types';

/** Every subcommand; adding one is one line here. */
const COMMANDS: readonly CliCommand[] = [startCommand, mcpCommand, hookCommand, askCommand];

const USAGE_EXIT = 2;

function usage(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  const lines = COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Usage: askaway <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun \`askaway <command> --help\` for a command's options.\n`;
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? USAGE_EXIT : 0;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    process.stderr.write(`askaway: unknown command "${name}"\n\n${usage()}`);
    return USAGE_EXIT;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`askaway: ${errorMessage(error)}\n`);
    process.exitCode = 1;
  },
);
