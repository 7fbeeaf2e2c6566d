import {
  personLabel,
  type DeviceRecord,
  type GroupRecord,
  type InteractionView,
  type MachineRecord,
  type PersonRecord,
  type QuestionOwner,
} from '../../contracts';

/** What the visibility rule reads: the fold's devices, machines, people and groups (R21.15–R21.18, R21.23). */
export interface OwnershipFold {
  readonly devices: ReadonlyMap<string, DeviceRecord>;
  readonly machines: ReadonlyMap<string, MachineRecord>;
  readonly people: ReadonlyMap<string, PersonRecord>;
  readonly groups: ReadonlyMap<string, GroupRecord>;
}

/** What of a question the rule reads: the machine that asked it and whom it was handed to. */
export type VisibleQuestion = Pick<InteractionView, 'machine' | 'handedOver'>;

/**
 * Whose question this is (R21.15, R21.16, R21.18), as the interaction record's `askedFor` says it: the person or
 * group of the machine that asked, from the log's `machine.joined`, never from anything the agent sent; the hub's
 * own agents and machines invited with a plain `askaway invite` are the owner's. `undefined` on a hub without
 * people (or before its owner has signed in).
 */
export function questionOwner(fold: OwnershipFold, machineId: string): QuestionOwner | undefined {
  const machine = fold.machines.get(machineId);
  const person = machine?.personId !== undefined ? fold.people.get(machine.personId) : undefined;
  if (person) return { kind: 'person', id: person.id, name: personLabel(person) };
  const group = machine?.groupId !== undefined ? fold.groups.get(machine.groupId) : undefined;
  if (group) return { kind: 'group', id: group.id, name: group.name };
  const owner = [...fold.people.values()].find((candidate) => candidate.role === 'owner');
  return owner && { kind: 'person', id: owner.id, name: personLabel(owner) };
}

/**
 * Whether a person is in a group (R21.18): listed by id, or their provider's `groups` claim at their last sign-in
 * holds the group's `providerGroup`.
 */
export function isGroupMember(group: GroupRecord, person: PersonRecord): boolean {
  if (group.members.includes(person.id)) return true;
  return group.providerGroup !== undefined && (person.groups ?? []).includes(group.providerGroup);
}

/** The groups a person is in, by id. */
export function groupsOf(fold: Pick<OwnershipFold, 'groups'>, person: PersonRecord): string[] {
  return [...fold.groups.values()].filter((group) => isGroupMember(group, person)).map((group) => group.id);
}

/** The device's person while they are on the hub: undefined for a link-paired device and a removed person's. */
export function activePersonOf(fold: OwnershipFold, deviceId: string): PersonRecord | undefined {
  const personId = fold.devices.get(deviceId)?.personId;
  const person = personId === undefined ? undefined : fold.people.get(personId);
  return person?.removedAt === undefined ? person : undefined;
}

/** Owner and admins manage the team (R21.19): groups, roles, others' devices and machines, hand-overs. */
export function managesTeam(person: Pick<PersonRecord, 'role' | 'removedAt'> | undefined): boolean {
  return person?.removedAt === undefined && (person?.role === 'owner' || person?.role === 'admin');
}

/**
 * Whether a device sees everything (R21.17, R21.19): a device paired with a pairing link (`askaway pair`, the admin
 * token's) belongs to the hub's operator, and an owner's or admin's device sees all. Only a member's device is
 * limited. On a hub without people no device has a person: every device sees all.
 */
export function deviceSeesAll(fold: OwnershipFold, deviceId: string): boolean {
  const personId = fold.devices.get(deviceId)?.personId;
  if (personId === undefined) return true;
  return managesTeam(fold.people.get(personId));
}

/**
 * Whether this device may see, be notified of and answer this question (R21.17, R21.18, R21.23): everything for
 * those who see all; for a member, a question handed to them, else one whose machine is theirs, else one whose
 * machine's group has them. A question handed to someone else is no longer its machine's person's or group's.
 */
export function deviceSees(fold: OwnershipFold, deviceId: string, view: VisibleQuestion): boolean {
  if (deviceSeesAll(fold, deviceId)) return true;
  // A removed person's devices see nothing from the removal on, before their revocations are even in (R21.20).
  const person = activePersonOf(fold, deviceId);
  if (!person) return false;
  if (view.handedOver) return view.handedOver.to.id === person.id;
  const machine = fold.machines.get(view.machine.id);
  if (machine?.personId !== undefined) return machine.personId === person.id;
  const group = machine?.groupId !== undefined ? fold.groups.get(machine.groupId) : undefined;
  return group !== undefined && isGroupMember(group, person);
}
