import { MachineListSchema, MachineRevokeResponseSchema, type MachineInfo } from '../../lib/contracts';
import { AdminError, adminRequest } from './admin-client';
import { credentialListCommand, findByIdOrName } from './credential-list-command';
import { formatTable, formatTime, lastSeen } from './list-format';

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

export const machinesCommand = credentialListCommand<MachineInfo>({
  name: 'machines',
  summary: 'List the machines joined to this hub; revoke one',
  usage: MACHINES_USAGE,
  revokeTakes: 'one machine name or id',
  list: async (target) => (await adminRequest(target, 'GET', '/machines', MachineListSchema)).machines,
  async revoke(target, machines, which) {
    const machine = findMachine(machines, which);
    const { machine: revoked } = await adminRequest(
      target,
      'POST',
      `/machines/${encodeURIComponent(machine.id)}/revoke`,
      MachineRevokeResponseSchema,
    );
    return `Revoked ${revoked.name} (${revoked.id}): its agents are disconnected, its waiting questions withdrawn; it must join again.`;
  },
  format: (machines) => formatMachines(machines),
  json: (machines) => ({ machines }),
});

/** A joined machine by exact id, unique id prefix (4+ characters) or name (any case); never the hub itself. */
export function findMachine(machines: readonly MachineInfo[], which: string): MachineInfo {
  const wanted = which.trim();
  if (machines.some((machine) => machine.kind === 'hub' && (machine.name === wanted || machine.id === wanted)))
    throw new AdminError(`"${wanted}" is this hub itself; only joined machines can be revoked.`);
  const joined = machines.filter((machine) => machine.kind === 'joined');
  return findByIdOrName(joined, wanted, { one: 'joined machine', many: 'machines' });
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
