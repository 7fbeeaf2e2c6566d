import { type DeviceRecord, type InteractionView, type MachineRecord, type PersonRecord } from '../../contracts';

/** What the visibility rule reads: the fold's devices, machines and people (R21.15–R21.17). */
export interface OwnershipFold {
  readonly devices: ReadonlyMap<string, DeviceRecord>;
  readonly machines: ReadonlyMap<string, MachineRecord>;
  readonly people: ReadonlyMap<string, PersonRecord>;
}

/**
 * Whose question this is (R21.15, R21.16): the person of the machine that asked, from the log's `machine.joined`,
 * never from anything the agent sent. `undefined`: the hub owner's (the hub's own agents, and machines joined with
 * a code the admin token minted).
 */
export function questionPerson(fold: OwnershipFold, view: Pick<InteractionView, 'machine'>): string | undefined {
  return fold.machines.get(view.machine.id)?.personId;
}

/**
 * Whether a device sees everything (R21.17): a device paired with a pairing link (`askaway pair`, the admin
 * token's) belongs to the hub's operator, and an owner's or admin's device sees all. Only a member's device is
 * limited to its person's questions. On a hub without people no device has a person: every device sees all.
 */
export function deviceSeesAll(fold: OwnershipFold, deviceId: string): boolean {
  const personId = fold.devices.get(deviceId)?.personId;
  if (personId === undefined) return true;
  const person = fold.people.get(personId);
  if (person?.removedAt !== undefined) return false;
  return person?.role === 'owner' || person?.role === 'admin';
}

/** Whether this device may see, be notified of and answer this question (R21.17). */
export function deviceSees(fold: OwnershipFold, deviceId: string, view: Pick<InteractionView, 'machine'>): boolean {
  if (deviceSeesAll(fold, deviceId)) return true;
  const personId = fold.devices.get(deviceId)?.personId;
  // A removed person's devices see nothing from the removal on, before their revocations are even in (R21.20).
  if (personId === undefined || fold.people.get(personId)?.removedAt !== undefined) return false;
  return questionPerson(fold, view) === personId;
}
