import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  ApiErrorSchema,
  MachineListSchema,
  WHOAMI_API_PATH,
  WhoAmIResponseSchema,
  type MachineRef,
} from '../../lib/contracts';
import { resolveDataDir, resolveHostTarget, type HostTarget } from '../../lib/runtime/host-address';
import { type AgentStatus, type HubContribution } from '../../lib/runtime/hub-contribution';
import { describeConnectionFailure } from '../../lib/runtime/transport-errors';
import { adminRequest, findAdminTarget } from './admin-client';
import { hubContributions } from './hub-contributions';
import { requestJson } from '../../lib/http/request-json';
import { parseFlags } from './parse-flags';
import { type CliCommand } from './types';

export const STATUS_USAGE = `Usage: askaway status [--json] [--data-dir <dir>]

Says which Askaway host this machine's agents (hooks, \`askaway mcp\`, \`askaway ask\`) use
and why — ASKAWAY_URL, the hub this machine joined (\`askaway join\`), or the host running
here — whether it is reachable (and why not), and as which machine. On a hub, also its
own name and how many machines are joined. Then whether a Codex bridge runs here (\`askaway
start\` or \`askaway codex\`), is attached to each Codex home's daemon, and to how many threads.
Exit code 0 when reachable and accepted, else 1.

Options:
  --json             Print the same as JSON
  --data-dir <dir>   This machine's data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  -h, --help         Show this help
`;

/** What `askaway status` found (R17.8). */
export interface StatusReport {
  url: string;
  source: HostTarget['source'];
  /** Where the choice came from, in words. */
  because: string;
  reachable: boolean;
  /** Why it is not reachable, or why the host refused this machine's credential. */
  problem?: string;
  hubName?: string;
  hubVersion?: string;
  machine?: MachineRef;
  /** Set when this data dir belongs to the running host: this hub's own view. */
  thisHub?: { joinedMachines: number };
  /** What each agent says about itself here (R18.29), e.g. whether a Codex bridge runs (R18.14). */
  agents: AgentStatus[];
}

export const statusCommand: CliCommand = {
  name: 'status',
  summary: 'Which hub this machine uses, whether it is reachable, and as which machine',
  async run(argv) {
    const parsed = parseFlags('status', STATUS_USAGE, argv, {
      json: { type: 'boolean' },
      'data-dir': { type: 'string' },
    });
    if ('exit' in parsed) return parsed.exit;
    const { values } = parsed;
    const env = values['data-dir'] ? { ...process.env, ASKAWAY_DATA_DIR: values['data-dir'] } : process.env;
    const report = await checkStatus(env);
    process.stdout.write(values.json ? `${JSON.stringify(statusJson(report))}\n` : formatStatus(report));
    return report.reachable && report.problem === undefined ? 0 : 1;
  },
};

export async function checkStatus(
  env: Record<string, string | undefined>,
  // What status reads of an agent does not depend on what `askaway start` would run for it.
  contributions: readonly HubContribution[] = hubContributions({ codexHomes: [] }),
): Promise<StatusReport> {
  const dataDir = resolveDataDir(env);
  const target = resolveHostTarget(env);
  const report: StatusReport = {
    url: target.url,
    source: target.source,
    because: because(target, dataDir),
    reachable: false,
    agents: contributions.flatMap((contribution) => contribution.status?.(env, dataDir) ?? []),
  };
  if (target.token === null) {
    report.problem =
      'no token or machine credential here: join a hub (`askaway join`) or start a host (`askaway start`)';
  }
  try {
    // As runtimes see it: TLS verified as Node does, no exception for this machine.
    const reply = await requestJson(new URL(`${target.url}${WHOAMI_API_PATH}`), {
      method: 'GET',
      ...(target.token !== null ? { token: target.token } : {}),
      timeoutMs: 5_000,
    });
    report.reachable = reply.status > 0;
    const whoami = WhoAmIResponseSchema.safeParse(reply.json);
    if (reply.status === 200 && whoami.success) {
      report.hubName = whoami.data.hubName;
      report.hubVersion = whoami.data.hubVersion;
      report.machine = whoami.data.machine;
    } else if (target.token !== null) {
      const refusal = ApiErrorSchema.safeParse(reply.json);
      report.problem = refusal.success
        ? `it refused this machine: ${refusal.data.error.message}`
        : `it answered HTTP ${reply.status}: is this an Askaway host of this version?`;
    }
  } catch (error) {
    report.problem = describeConnectionFailure(error);
  }
  if (report.reachable && existsSync(path.join(dataDir, 'host.json'))) {
    try {
      const admin = findAdminTarget(env);
      const { machines } = await adminRequest(admin, 'GET', '/machines', MachineListSchema);
      report.thisHub = { joinedMachines: machines.filter((machine) => machine.kind === 'joined').length };
    } catch {
      // Not this machine's host after all (or no admin token here): nothing to add.
    }
  }
  return report;
}

function because(target: HostTarget, dataDir: string): string {
  switch (target.source) {
    case 'env':
      return 'ASKAWAY_URL is set';
    case 'joined':
      return `joined with askaway join: ${path.join(dataDir, 'hub.json')}`;
    case 'local':
      return `the host running on this machine: ${path.join(dataDir, 'host.json')}`;
    case 'default':
      return 'the default address: no host runs here and this machine joined no hub';
  }
}

export function formatStatus(report: StatusReport): string {
  const lines = [`Host:       ${report.url} (${report.because})`];
  if (report.problem !== undefined && !report.reachable) lines.push(`Reachable:  no — ${report.problem}`);
  else
    lines.push(`Reachable:  yes${report.hubName ? ` — ${report.hubName}, Askaway ${report.hubVersion ?? '?'}` : ''}`);
  if (report.machine) {
    const kind = report.machine.id === 'local' ? 'the hub itself (agent token)' : `joined machine ${report.machine.id}`;
    lines.push(`As machine: ${report.machine.name} (${kind})`);
  } else if (report.reachable && report.problem !== undefined) lines.push(`As machine: refused — ${report.problem}`);
  if (report.thisHub)
    lines.push(
      `This hub:   ${report.hubName ?? ''}, ${report.thisHub.joinedMachines} machine${report.thisHub.joinedMachines === 1 ? '' : 's'} joined (\`askaway machines\`)`,
    );
  lines.push(...report.agents.flatMap((agent) => agent.lines));
  return `${lines.join('\n')}\n`;
}

/** `askaway status --json`: the report with each agent's fields beside the hub's (which an agent cannot replace). */
export function statusJson(report: StatusReport): Record<string, unknown> {
  const { agents, ...hub } = report;
  return Object.assign({}, ...agents.map((agent) => agent.json), hub);
}
