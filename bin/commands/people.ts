import { PeopleListSchema, PersonRevokeResponseSchema, personLabel, type PersonRecord } from '../../lib/contracts';
import { adminRequest } from './admin-client';
import { credentialListCommand, findByIdOrName } from './credential-list-command';
import { formatTable, formatTime } from './list-format';

export const PEOPLE_USAGE = `Usage:
  askaway people [--json] [--data-dir <dir>]
  askaway people revoke <email or id> [--data-dir <dir>]

Run on a hub started with --oidc-issuer. Lists the people who signed in: name, email,
role, when they last signed in. \`revoke\` removes a person from the hub at once: their
devices and machines are revoked (their machines' waiting questions withdrawn) and the
hub refuses their sign-in from then on. The owner cannot be removed.

Options:
  --json             Print the list as JSON
  --data-dir <dir>   The running hub's data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  -h, --help         Show this help
`;

export const peopleCommand = credentialListCommand<PersonRecord>({
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
