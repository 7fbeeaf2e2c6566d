import * as z from 'zod/mini';
import { GroupRecordSchema, PeopleListSchema, type GroupRecord } from '../../lib/contracts';
import { adminRequest, type AdminTarget } from './admin-client';
import { findByIdOrName } from './credential-list-command';

/** `GET /api/admin/groups`: every group (R21.18). */
export const AdminGroupListSchema = z.looseObject({ groups: z.array(GroupRecordSchema) });

/** The ids of the people `which` name (emails or ids), among those not removed; an unknown one is refused. */
export async function personIds(target: AdminTarget, which: readonly string[]): Promise<string[]> {
  if (which.length === 0) return [];
  const { people } = await adminRequest(target, 'GET', '/people', PeopleListSchema);
  const present = people
    .filter((person) => person.removedAt === undefined)
    .map((person) => ({ id: person.id, name: person.email ?? person.id }));
  return which.map((one) => findByIdOrName(present, one, { one: 'person', many: 'people' }).id);
}

/** The group `which` names (its name, any case, or its id). */
export async function findGroup(target: AdminTarget, which: string): Promise<GroupRecord> {
  const { groups } = await adminRequest(target, 'GET', '/groups', AdminGroupListSchema);
  return findByIdOrName(groups, which, { one: 'group', many: 'groups' });
}
