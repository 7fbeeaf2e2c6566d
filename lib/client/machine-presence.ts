import { type MachineInfo } from '../contracts';
import { type HostView } from './reduce';

// Who is connected (R17.5, R17.6): the inbox, the card and Settings, not History or Sessions.

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
