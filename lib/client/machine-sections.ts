import { type InteractionView, type MachineInfo, type MachineRef } from '../contracts';
import { memo2 } from './machine-selectors';
import { selectInbox, type InboxGroup } from './selectors';

// The inbox by machine (R17.3), apart from the other machine selectors: only the inbox uses it.

type Interactions = ReadonlyMap<string, InteractionView>;

/** One machine's part of the inbox: its waiting sessions, newest first. */
export interface MachineSection {
  machine: MachineRef;
  /** The machine as the hub lists it now; undefined while no live list says (a cached inbox). */
  info: MachineInfo | undefined;
  groups: InboxGroup[];
  /** Prompts waiting on this machine. */
  count: number;
}

/** A machine's waiting sessions, from the interactions alone: kept while they stay the same map. */
interface Waiting {
  ref: MachineRef;
  groups: InboxGroup[];
  count: number;
}

const waitingByMachine = new WeakMap<Interactions, Waiting[]>();
/** The last section made for each machine's waiting sessions, so an equal entry in a new list keeps it. */
const lastSection = new WeakMap<Waiting, MachineSection>();

function waitingOn(interactions: Interactions): Waiting[] {
  const hit = waitingByMachine.get(interactions);
  if (hit) return hit;
  const byMachine = new Map<string, Waiting>();
  for (const group of selectInbox({ interactions })) {
    let waiting = byMachine.get(group.machine.id);
    if (!waiting) {
      waiting = { ref: group.machine, groups: [], count: 0 };
      byMachine.set(group.machine.id, waiting);
    }
    waiting.groups.push(group);
    waiting.count += group.items.length;
  }
  const list = [...byMachine.values()];
  waitingByMachine.set(interactions, list);
  return list;
}

/** Every field of a machine entry is a string or a number: equal entries have equal fields. */
function sameInfo(a: MachineInfo | undefined, b: MachineInfo | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const keys = Object.keys(a) as (keyof MachineInfo)[];
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * The inbox by machine, then session (R17.3). Machines with nothing waiting have no section; a
 * machine's section comes where its newest prompt would (the inbox reads newest first). The name
 * is the hub's current one for the machine, else the one it asked with. A new machine list keeps
 * the section of every machine it says the same about (R17.9): agents coming and going on one
 * machine re-render that machine's part of the inbox, not a thousand rows.
 */
export const selectMachineSections = memo2((interactions, machines): MachineSection[] =>
  waitingOn(interactions).map((waiting) => {
    const info = machines.find((machine) => machine.id === waiting.ref.id);
    const last = lastSection.get(waiting);
    if (last && sameInfo(last.info, info)) return last;
    const section: MachineSection = {
      machine: info ? { id: info.id, name: info.name } : waiting.ref,
      info,
      groups: waiting.groups,
      count: waiting.count,
    };
    lastSection.set(waiting, section);
    return section;
  }),
);
