import { type InteractionView } from '../contracts';
import { type HostView } from './reduce';
import { machineInfo, machinePresence } from './machine-presence';

// The card's own (R17.6), apart from ./machine-selectors.ts, which every list carries.

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
