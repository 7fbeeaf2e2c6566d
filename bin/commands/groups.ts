import * as z from 'zod/mini';
import { GroupRecordSchema, TeamPersonSchema, type GroupInput, type GroupRecord } from '../../lib/contracts';
import { AdminError, adminRequest, findAdminTarget, type AdminTarget } from './admin-client';
import { formatTable } from './list-format';
import { parseFlags, usageError } from './parse-flags';
import { findGroup, personIds } from './team-lookup';
import { type CliCommand } from './types';

export const GROUPS_USAGE = `Usage:
  askaway groups [--json] [--data-dir <dir>]
  askaway groups create <name> [--members <email or id>,…] [--provider-group <claim value>]
  askaway groups set <name or id> [--name <new name>] [--members <email or id>,…] [--provider-group <claim value>]
  askaway groups remove <name or id>

Run on a hub started with --oidc-issuer. A group's shared machines (a CI runner, a build
box: \`askaway invite --for-group <group>\`) ask for all of its members: each member's phone
sees, is notified of and may answer their questions. Members are the people listed
(emails or ids from \`askaway people\`), and everyone whose provider's \`groups\` claim at
their last sign-in holds --provider-group. \`set\` replaces what it is given and keeps the
rest; \`--members ""\` empties the list. Removing a group leaves its machines' questions to
the owner and admins.

Options:
  --members <list>         Comma-separated emails or person ids
  --provider-group <value> A value of the provider's \`groups\` claim whose people are members
  --name <name>            (set) The group's new name
  --json                   Print the list as JSON
  --data-dir <dir>         The running hub's data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  -h, --help               Show this help
`;

const GroupListSchema = z.looseObject({ groups: z.array(GroupRecordSchema), people: z.array(TeamPersonSchema) });
const GroupReplySchema = z.looseObject({ group: GroupRecordSchema });

/** `askaway groups`: a team hub's groups, through the running hub's admin API (R21.18). */
export const groupsCommand: CliCommand = {
  name: 'groups',
  summary: 'List, create, change or remove the groups of a hub with sign-in',
  async run(argv) {
    const parsed = parseFlags(
      'groups',
      GROUPS_USAGE,
      argv,
      {
        json: { type: 'boolean' },
        members: { type: 'string' },
        'provider-group': { type: 'string' },
        name: { type: 'string' },
        'data-dir': { type: 'string' },
      },
      true,
    );
    if ('exit' in parsed) return parsed.exit;
    const { values, positionals } = parsed;
    const [verb, which, ...extra] = positionals;
    const fail = (message: string) => usageError('groups', GROUPS_USAGE, message);
    if (verb !== undefined && !['create', 'set', 'remove'].includes(verb)) return fail(`unknown subcommand "${verb}"`);
    if (verb !== undefined && (which === undefined || extra.length > 0)) return fail(`${verb} takes one group name`);
    if (verb !== 'set' && values.name !== undefined) return fail('--name is for `set`');
    try {
      const target = findAdminTarget(process.env, values['data-dir']);
      if (verb === undefined) {
        const list = await adminRequest(target, 'GET', '/groups', GroupListSchema);
        process.stdout.write(values.json ? `${JSON.stringify({ groups: list.groups })}\n` : formatGroups(list));
        return 0;
      }
      const name = which ?? '';
      if (verb === 'remove') {
        const group = await findGroup(target, name);
        await adminRequest(target, 'POST', `/groups/${group.id}/remove`, GroupReplySchema);
        process.stdout.write(`Removed the group ${group.name} (${group.id}).\n`);
        return 0;
      }
      const members = values.members === undefined ? undefined : await membersOf(target, values.members);
      const providerGroup = values['provider-group']?.trim() || undefined;
      if (verb === 'create') {
        const input: GroupInput = { name, members: members ?? [], ...(providerGroup ? { providerGroup } : {}) };
        const { group } = await adminRequest(target, 'POST', '/groups', GroupReplySchema, input);
        process.stdout.write(`Created the group ${group.name} (${group.id}) with ${describeMembers(group)}.\n`);
        return 0;
      }
      const current = await findGroup(target, name);
      const kept = providerGroup ?? current.providerGroup;
      const input: GroupInput = {
        name: values.name ?? current.name,
        members: members ?? current.members,
        ...(kept !== undefined ? { providerGroup: kept } : {}),
      };
      const { group } = await adminRequest(target, 'POST', `/groups/${current.id}`, GroupReplySchema, input);
      process.stdout.write(`Saved the group ${group.name} (${group.id}) with ${describeMembers(group)}.\n`);
      return 0;
    } catch (error) {
      if (!(error instanceof AdminError)) throw error;
      process.stderr.write(`askaway groups: ${error.message}\n`);
      return error.exitCode;
    }
  },
};

async function membersOf(target: AdminTarget, list: string): Promise<string[]> {
  const which = list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return personIds(target, which);
}

function describeMembers(group: GroupRecord): string {
  const listed = `${group.members.length} member(s)`;
  return group.providerGroup === undefined ? listed : `${listed} and everyone in "${group.providerGroup}"`;
}

/** A table a person reads: each group, its members by name, its provider group. */
export function formatGroups(list: z.infer<typeof GroupListSchema>): string {
  const names = new Map(list.people.map((person) => [person.id, person.email ?? person.name ?? person.id]));
  const rows = [
    ['NAME', 'MEMBERS', 'PROVIDER GROUP', 'ID'],
    ...list.groups.map((group) => [
      group.name,
      group.members.map((id) => names.get(id) ?? id).join(', ') || '—',
      group.providerGroup ?? '—',
      group.id,
    ]),
  ];
  const hint = list.groups.length === 0 ? 'No groups yet: `askaway groups create <name> --members …`.\n' : '';
  return `${formatTable(rows)}${hint}`;
}
