import { type PersonRecord, type PersonRef } from '../../contracts';

/** A person as a device list shows them (R21.12): no issuer, subject or groups. */
export function personRef(person: PersonRecord): PersonRef {
  return {
    id: person.id,
    role: person.role,
    ...(person.name !== undefined ? { name: person.name } : {}),
    ...(person.email !== undefined ? { email: person.email } : {}),
  };
}
