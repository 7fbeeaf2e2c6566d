import { type InteractionView } from '../contracts';
import { agentKey, type AgentKind } from '../contracts/agent-ref';
import { LOCAL_MACHINE_ID } from '../contracts/machine-keys';
import { memoByInteractions } from './interactions-memo';
import { memo2 } from './machine-selectors';

// The filters of Sessions and History, by machine (R17.3) and by agent (R18.1): only those screens carry them.

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

/** The filter in effect: a remembered machine or agent that is no longer an option means all of them. */
export function effectiveFilter(remembered: string, options: readonly { id: string }[]): string {
  return options.some((option) => option.id === remembered) ? remembered : '';
}

/** `filter` is a machine id, or '' for every machine. */
export function onMachine(view: Pick<InteractionView, 'machine'>, filter: string): boolean {
  return filter === '' || view.machine.id === filter;
}

export interface AgentOption {
  /** `agentKey`: the kind, and an MCP client's name. */
  id: string;
  name: string;
  kind: AgentKind;
}

/** Every agent on record, by name. */
export const selectAgentOptions = memoByInteractions((interactions): AgentOption[] => {
  const options = new Map<string, AgentOption>();
  for (const view of interactions.values()) {
    if (!view.agent) continue;
    const id = agentKey(view.agent);
    if (!options.has(id)) options.set(id, { id, name: view.agent.name, kind: view.agent.kind });
  }
  return [...options.values()].sort((a, b) => a.name.localeCompare(b.name));
});

/** `filter` is an `agentKey`, or '' for every agent. */
export function byAgent(view: Pick<InteractionView, 'agent'>, filter: string): boolean {
  return filter === '' || (view.agent !== undefined && agentKey(view.agent) === filter);
}
