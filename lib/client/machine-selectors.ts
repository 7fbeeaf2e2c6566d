import { type InteractionView, type MachineInfo } from '../contracts';
// The zod-free file: the inbox's first screen must not need the schemas for a constant.
import { LOCAL_MACHINE_ID } from '../contracts/machine-keys';
import { type HostView } from './reduce';

// Machines on the phone (R17.3): whether to show them at all. Who is connected is ./machine-presence (the
// inbox and the card), the inbox by machine ./machine-sections, the filter of Sessions and History ./filter-options.

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
