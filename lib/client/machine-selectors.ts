import { type InteractionView, type MachineInfo } from '../contracts';
// The zod-free file: the inbox's first screen must not need the schemas for a constant.
import { LOCAL_MACHINE_ID } from '../contracts/machine-keys';
import { type HostView } from './reduce';

// Machines on the phone (R17.3, R17.5, R17.6): whether to show them at all, who is
// connected (the inbox by machine is in ./machine-sections), and the machine filter of Sessions and History.

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

/**
 * A waiting prompt whose machine has no agent connected now (R17.6): it can still be answered, and
 * the answer reaches the agent when the machine comes back and re-announces.
 */
export function waitsForMachine(
  view: Pick<InteractionView, 'machine' | 'status'>,
  host: Pick<HostView, 'machines'>,
  live: boolean,
): boolean {
  return view.status === 'pending' && machinePresence(machineInfo(host, view.machine.id), live) === 'away';
}

/**
 * An answer the hub holds for an agent that is not there to take it: resolved, not yet received
 * by the agent, and its machine has no agent connected (R17.6).
 */
export function deliveryWaitsForMachine(
  view: Pick<InteractionView, 'machine' | 'status' | 'deliveredAt'>,
  host: Pick<HostView, 'machines'>,
  live: boolean,
): boolean {
  return (
    view.status === 'resolved' &&
    view.deliveredAt === undefined &&
    machinePresence(machineInfo(host, view.machine.id), live) === 'away'
  );
}

export interface MachineOption {
  id: string;
  name: string;
  /** `gone`: no longer in the hub's list (revoked), known from what it asked. */
  kind: 'hub' | 'joined' | 'gone';
}

/** Every machine to filter by: the hub's list in its order (hub first), then machines only on record. */
export const selectMachineOptions = memo2((interactions, machines): MachineOption[] => {
  const options = new Map<string, MachineOption>();
  for (const machine of machines) options.set(machine.id, { id: machine.id, name: machine.name, kind: machine.kind });
  const gone = new Map<string, MachineOption>();
  for (const view of interactions.values()) {
    const id = view.machine.id;
    if (options.has(id) || gone.has(id)) continue;
    gone.set(id, { id, name: view.machine.name, kind: id === LOCAL_MACHINE_ID ? 'hub' : 'gone' });
  }
  return [...options.values(), ...[...gone.values()].sort((a, b) => a.name.localeCompare(b.name))];
});

/** The filter in effect: a remembered machine that is no longer an option means all machines. */
export function effectiveMachineFilter(remembered: string, options: readonly MachineOption[]): string {
  return options.some((option) => option.id === remembered) ? remembered : '';
}

/** `filter` is a machine id, or '' for every machine. */
export function onMachine(view: Pick<InteractionView, 'machine'>, filter: string): boolean {
  return filter === '' || view.machine.id === filter;
}

/** The machine list tells the present only while this device is connected and holds a live snapshot. */
export function machinesLive(state: { status: string; host: Pick<HostView, 'hasSnapshot'> }): boolean {
  return state.status === 'connected' && state.host.hasSnapshot;
}
