import { type InteractionView, type MachineInfo } from '../contracts';
// The zod-free file: the inbox's first screen must not need the schemas for a constant.
import { LOCAL_MACHINE_ID } from '../contracts/machine-keys';
import { type HostView } from './reduce';

// Machines on the phone (R17.3, R17.5, R17.6): whether to show them at all and who is connected (the inbox
// by machine is in ./machine-sections, the machine filter of Sessions and History in ./filter-options).

type Interactions = ReadonlyMap<string, InteractionView>;
type Machines = readonly MachineInfo[];

/** Memoized on both the interactions and the machine list (each replaced, never mutated). */
export function memo2<T>(compute: (interactions: Interactions, machines: Machines) => T) {
  const cache = new WeakMap<Interactions, WeakMap<Machines, T>>();
  return (host: Pick<HostView, 'interactions' | 'machines'>): T => {
    let inner = cache.get(host.interactions);
    if (!inner) {
      inner = new WeakMap();
      cache.set(host.interactions, inner);
    }
    const hit = inner.get(host.machines);
    if (hit !== undefined) return hit;
    const value = compute(host.interactions, host.machines);
    inner.set(host.machines, value);
    return value;
  };
}

/**
 * Whether machines are worth showing: the hub knows another machine, or something on record came
 * from one (the history of a machine revoked since). A hub alone shows no chip, header or filter:
 * every prompt is from the same computer, and the extra level would only push the questions down.
 */
export const selectShowMachines = memo2((interactions, machines): boolean => {
  if (machines.some((machine) => machine.id !== LOCAL_MACHINE_ID)) return true;
  for (const view of interactions.values()) if (view.machine.id !== LOCAL_MACHINE_ID) return true;
  return false;
});

export type MachinePresence = 'connected' | 'away' | 'unknown';

/**
 * Whether a machine has agents connected now (R17.6). Unknown while this device is not live (the
 * list would be stale) or the hub does not list the machine.
 */
export function machinePresence(info: MachineInfo | undefined, live: boolean): MachinePresence {
  if (!live || !info) return 'unknown';
  return info.connectedAgents > 0 ? 'connected' : 'away';
}

/** The hub's live entry for a machine. */
export function machineInfo(host: Pick<HostView, 'machines'>, machineId: string): MachineInfo | undefined {
  return host.machines.find((machine) => machine.id === machineId);
}

/** The machine list tells the present only while this device is connected and holds a live snapshot. */
export function machinesLive(state: { status: string; host: Pick<HostView, 'hasSnapshot'> }): boolean {
  return state.status === 'connected' && state.host.hasSnapshot;
}
