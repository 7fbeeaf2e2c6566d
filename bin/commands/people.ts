import * as z from 'zod/mini';
import {
  PeopleListSchema,
  PersonRecordSchema,
  PersonRevokeResponseSchema,
  personLabel,
  type PersonRecord,
} from '../../lib/contracts';
import { AdminError, adminRequest, findAdminTarget } from './admin-client';
import { credentialListCommand, findByIdOrName } from './credential-list-command';
import { formatTable, formatTime } from './list-format';
import { parseFlags, usageError } from './parse-flags';
import { personIds } from './team-lookup';
import { type CliCommand } from './types';

export const PEOPLE_USAGE = `Usage:
  askaway people [--json] [--data-dir <dir>]
  askaway people revoke <email or id> [--data-dir <dir>]
  askaway people role <email or id> admin|member [--data-dir <dir>]

Run on a hub started with --oidc-issuer. Lists the people who signed in: name, email,
role, when they last signed in. \`revoke\` removes a person from the hub at once: their
devices and machines are revoked (their machines' waiting questions withdrawn) and the
hub refuses their sign-in from then on. The owner cannot be removed. \`role\` makes a
person an admin (sees every question, manages people, groups and machines) or a member
(their own and their groups' questions only); the owner's role does not change.

Options:
  --json             Print the list as JSON
  --data-dir <dir>   The running hub's data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  -h, --help         Show this help
`;

const listAndRevoke = credentialListCommand<PersonRecord>({
  name: 'people',
  summary: 'List the people of a hub with sign-in; remove one',
  usage: PEOPLE_USAGE,
  revokeTakes: 'one email or person id',
  list: async (target) => (await adminRequest(target, 'GET', '/people', PeopleListSchema)).people,
  async revoke(target, people, which) {
    const present = people.filter((person) => person.removedAt === undefined);
    const person = findByIdOrName(
      present.map((entry) => ({ ...entry, name: entry.email ?? entry.id })),
      which,
      { one: 'person', many: 'people' },
    );
    const removed = await adminRequest(
      target,
      'POST',
      `/people/${encodeURIComponent(person.id)}/revoke`,
      PersonRevokeResponseSchema,
    );
    return (
      `Removed ${personLabel(removed.person)} (${removed.person.id}): ${removed.devices} device(s) and ` +
      `${removed.machines} machine(s) revoked; their sign-in is refused from now on.`
    );
  },
  format: (people) => formatPeople(people),
  json: (people) => ({ people }),
});

/** `askaway people`, `… revoke`, and `… role <who> admin|member` (R21.19). */
export const peopleCommand: CliCommand = {
  name: listAndRevoke.name,
  summary: 'List the people of a hub with sign-in; remove one; change a role',
  async run(argv) {
    if (argv[0] !== 'role') return listAndRevoke.run(argv);
    const parsed = parseFlags('people', PEOPLE_USAGE, argv.slice(1), { 'data-dir': { type: 'string' } }, true);
    if ('exit' in parsed) return parsed.exit;
    const [who, role, ...extra] = parsed.positionals;
    if (who === undefined || (role !== 'admin' && role !== 'member') || extra.length > 0)
      return usageError('people', PEOPLE_USAGE, 'role takes a person (email or id) and admin or member');
    try {
      const target = findAdminTarget(process.env, parsed.values['data-dir']);
      const [personId = ''] = await personIds(target, [who]);
      const { person } = await adminRequest(
        target,
        'POST',
        `/people/${encodeURIComponent(personId)}/role`,
        z.looseObject({ person: PersonRecordSchema }),
        { role },
      );
      process.stdout.write(`${personLabel(person)} (${person.id}) is ${article(person.role)} ${person.role} now.\n`);
      return 0;
    } catch (error) {
      if (!(error instanceof AdminError)) throw error;
      process.stderr.write(`askaway people: ${error.message}\n`);
      return error.exitCode;
    }
  },
};

function article(role: string): string {
  return role === 'admin' || role === 'owner' ? 'an' : 'a';
}

/** A table a person reads: name, email, role, last sign-in; the removed say so. */
export function formatPeople(people: readonly PersonRecord[]): string {
  const rows = [
    ['NAME', 'EMAIL', 'ROLE', 'LAST SIGN-IN', 'ID'],
    ...people.map((person) => [
      person.name ?? '—',
      person.email ?? '—',
      person.removedAt === undefined ? person.role : `removed ${formatTime(person.removedAt)}`,
      person.lastSignInAt === undefined ? '—' : formatTime(person.lastSignInAt),
      person.id,
    ]),
  ];
  const hint = people.length === 0 ? 'Nobody has signed in yet: people sign in at <public url>/auth/sign-in.\n' : '';
  return `${formatTable(rows)}${hint}`;
}
