import { isGroupMember, activePersonOf, deviceSeesAll, type OwnershipFold } from './question-visibility';

/** Which devices and machines a device's lists show (R21.19): undefined when it sees every one. */
export interface ListScope {
  device(deviceId: string): boolean;
  machine(machineId: string): boolean;
}

/**
 * A member's device lists only its person's own devices, and its person's machines and their groups' shared
 * machines (R21.19); the owner's, admins' and the operator's devices, and every device of a hub without people,
 * list all. A removed person's device lists nothing.
 */
export function listScopeOf(fold: OwnershipFold, deviceId: string): ListScope | undefined {
  if (deviceSeesAll(fold, deviceId)) return undefined;
  const person = activePersonOf(fold, deviceId);
  if (!person) return { device: () => false, machine: () => false };
  return {
    device: (id) => fold.devices.get(id)?.personId === person.id,
    machine: (id) => {
      const machine = fold.machines.get(id);
      if (machine?.personId !== undefined) return machine.personId === person.id;
      const group = machine?.groupId !== undefined ? fold.groups.get(machine.groupId) : undefined;
      return group !== undefined && isGroupMember(group, person);
    },
  };
}

/** The entries of a list this scope lets through (all of them without one). */
export function scoped<T extends { id: string }>(
  entries: readonly T[],
  scope: ListScope | undefined,
  kind: 'device' | 'machine',
): T[] {
  return scope ? entries.filter((entry) => scope[kind](entry.id)) : [...entries];
}
