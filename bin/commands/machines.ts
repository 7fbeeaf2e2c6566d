import { parseArgs } from 'node:util';
import { errorMessage, MachineListSchema, MachineRevokeResponseSchema, type MachineInfo } from '../../lib/contracts';
import { AdminError, adminRequest, findAdminTarget, type AdminTarget } from './admin-client';
import { formatTable, formatTime, lastSeen } from './list-format';
import { type CliCommand } from './types';

export const MACHINES_USAGE = `Usage:
  askaway machines [--json] [--data-dir <dir>]
  askaway machines revoke <name or id> [--data-dir <dir>]

Run on the hub. Lists this hub and the machines joined to it (\`askaway invite\`,
\`askaway join\`): name, id, when it joined, when it was last seen and how many of its
agents are connected now. \`revoke\` takes a machine's access back at once: its agents
are disconnected, its waiting questions withdrawn, and it must join again with a new code.

Options:
  --json             Print the list as JSON
  --data-dir <dir>   The running hub's data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  -h, --help         Show this help
`;

export const machinesCommand: CliCommand = {
  name: 'machines',
  summary: 'List the machines joined to this hub; revoke one',
  async run(argv) {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        strict: true,
        allowPositionals: true,
        options: { json: { type: 'boolean' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      });
    } catch (error) {
      return usageError(errorMessage(error));
    }
    const { values, positionals } = parsed;
    if (values.help) {
      process.stdout.write(MACHINES_USAGE);
      return 0;
    }
    const [verb, ...rest] = positionals;
    if (verb !== undefined && verb !== 'revoke') return usageError(`unknown subcommand "${verb}"`);
    if (verb === 'revoke' && rest.length !== 1) return usageError('revoke takes one machine name or id');
    try {
      const target = findAdminTarget(process.env, values['data-dir']);
      const { machines } = await adminRequest(target, 'GET', '/machines', MachineListSchema);
      if (verb === 'revoke') return await revoke(target, machines, rest[0] ?? '');
      process.stdout.write(values.json ? `${JSON.stringify({ machines })}\n` : formatMachines(machines));
      return 0;
    } catch (error) {
      if (!(error instanceof AdminError)) throw error;
      process.stderr.write(`askaway machines: ${error.message}\n`);
      return error.exitCode;
    }
  },
};

async function revoke(target: AdminTarget, machines: readonly MachineInfo[], which: string): Promise<number> {
  const machine = findMachine(machines, which);
  const { machine: revoked } = await adminRequest(
    target,
    'POST',
    `/machines/${encodeURIComponent(machine.id)}/revoke`,
    MachineRevokeResponseSchema,
  );
  process.stdout.write(
    `Revoked ${revoked.name} (${revoked.id}): its agents are disconnected, its waiting questions withdrawn; it must join again.\n`,
  );
  return 0;
}

/** A joined machine by exact id, unique id prefix (4+ characters) or name (any case); never the hub itself. */
export function findMachine(machines: readonly MachineInfo[], which: string): MachineInfo {
  const wanted = which.trim();
  const joined = machines.filter((machine) => machine.kind === 'joined');
  if (machines.some((machine) => machine.kind === 'hub' && (machine.name === wanted || machine.id === wanted)))
    throw new AdminError(`"${wanted}" is this hub itself; only joined machines can be revoked.`);
  const byId = joined.find((machine) => machine.id === wanted);
  if (byId) return byId;
  const candidates =
    wanted.length >= 4 && joined.some((machine) => machine.id.startsWith(wanted))
      ? joined.filter((machine) => machine.id.startsWith(wanted))
      : joined.filter((machine) => machine.name.toLowerCase() === wanted.toLowerCase());
  const [only, ...others] = candidates;
  if (!only) throw new AdminError(`No joined machine "${wanted}". \`askaway machines\` lists them.`);
  if (others.length > 0) {
    const ids = candidates.map((machine) => `${machine.id} (${machine.name})`).join(', ');
    throw new AdminError(`"${wanted}" matches ${candidates.length} machines: ${ids}. Revoke one by its id.`);
  }
  return only;
}

/** A table a person reads: name, id, joined, last seen, agents connected now. */
export function formatMachines(machines: readonly MachineInfo[], now = new Date()): string {
  const joined = machines.filter((machine) => machine.kind === 'joined').length;
  const rows = [
    ['NAME', 'ID', 'JOINED', 'LAST SEEN', 'AGENTS'],
    ...machines.map((machine) => [
      machine.name,
      machine.kind === 'hub' ? '(this hub)' : machine.id,
      machine.joinedAt === undefined ? '—' : formatTime(machine.joinedAt),
      machine.connectedAgents > 0 ? 'connected now' : lastSeen(machine.lastSeenAt, now),
      String(machine.connectedAgents),
    ]),
  ];
  const hint = joined === 0 ? 'No machines joined yet: `askaway invite` prints a join code.\n' : '';
  return `${formatTable(rows)}${hint}`;
}

function usageError(message: string): number {
  process.stderr.write(`askaway machines: ${message}\n\n${MACHINES_USAGE}`);
  return 2;
}
