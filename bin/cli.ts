import { errorMessage } from '../lib/contracts';
import { type CliCommand } from './commands/types';

/**
 * Every subcommand, loaded only when it runs: `askaway hook` runs on each question Claude Code asks, and
 * should not first initialize the host (socket.io server, Web Push, the MCP SDK). Adding one is one line here.
 */
const COMMANDS: Readonly<Record<string, () => Promise<CliCommand>>> = {
  start: () => import('./commands/start').then((module) => module.startCommand),
  pair: () => import('./commands/pair').then((module) => module.pairCommand),
  devices: () => import('./commands/devices').then((module) => module.devicesCommand),
  invite: () => import('./commands/invite').then((module) => module.inviteCommand),
  join: () => import('./commands/join').then((module) => module.joinMachineCommand),
  machines: () => import('./commands/machines').then((module) => module.machinesCommand),
  people: () => import('./commands/people').then((module) => module.peopleCommand),
  groups: () => import('./commands/groups').then((module) => module.groupsCommand),
  audit: () => import('./commands/audit').then((module) => module.auditCommand),
  migrate: () => import('./commands/migrate').then((module) => module.migrateCommand),
  ntfy: () => import('./commands/ntfy').then((module) => module.ntfyCommand),
  status: () => import('./commands/status').then((module) => module.statusCommand),
  away: () => import('./commands/away').then((module) => module.awayCommand),
  mcp: () => import('./commands/mcp').then((module) => module.mcpCommand),
  hook: () => import('./commands/hook').then((module) => module.hookCommand),
  ask: () => import('./commands/ask').then((module) => module.askCommand),
  opencode: () => import('./commands/opencode').then((module) => module.openCodeCommand),
  codex: () => import('./commands/codex').then((module) => module.codexCommand),
  acp: () => import('./commands/acp').then((module) => module.acpCommand),
  copilot: () => import('./commands/copilot').then((module) => module.copilotCommand),
};

const USAGE_EXIT = 2;

async function usage(): Promise<string> {
  const commands = await Promise.all(Object.values(COMMANDS).map((load) => load()));
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Usage: askaway <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun \`askaway <command> --help\` for a command's options.\n`;
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(await usage());
    return name === undefined ? USAGE_EXIT : 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    process.stderr.write(`askaway: unknown command "${name}"\n\n${await usage()}`);
    return USAGE_EXIT;
  }
  return (await load()).run(rest);
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
