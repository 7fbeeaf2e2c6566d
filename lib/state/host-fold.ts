// lib/state: pure state shared by the host and the PWA; it imports contracts only, so both may import it.
import {
  type DeviceRecord,
  type GroupRecord,
  type HostEvent,
  type InteractionView,
  type MachineRecord,
  type PersonRecord,
  type Preferences,
} from '../contracts';

/**
 * The host's log folded into what it means now (R10.2): every interaction by
 * requestId, the newest seq and the preferences. The host keeps one for good and
 * folds each event it commits; a remote folds each batch into a copy of its last
 * one. Mutable so that folding an event costs O(1); the views in it are never
 * mutated, only replaced, so a copy of the map can share them.
 */
export interface HostFold {
  /** The highest seq folded in. */
  seq: number;
  /** Null until the log (or a snapshot) says; the host then uses DEFAULT_PREFERENCES. */
  preferences: Preferences | null;
  readonly interactions: Map<string, InteractionView>;
  /** Every device ever paired, by id; a revoked one keeps its record with `revokedAt` (R16.4, R16.5). */
  readonly devices: Map<string, DeviceRecord>;
  /** Every machine ever joined, by id; a revoked one keeps its record with `revokedAt` (R17.1, R17.2). */
  readonly machines: Map<string, MachineRecord>;
  /** A team hub's people, by id (R21.8); empty on a personal hub. */
  readonly people: Map<string, PersonRecord>;
  /** A team hub's groups, by id (R21.18); a removed group is gone. */
  readonly groups: Map<string, GroupRecord>;
}

export function emptyHostFold(): HostFold {
  return {
    seq: 0,
    preferences: null,
    interactions: new Map(),
    devices: new Map(),
    machines: new Map(),
    people: new Map(),
    groups: new Map(),
  };
}

/**
 * Folds one event in and returns the interaction it changed (a new object), if
 * any. An event at or below `seq` is already in (a duplicate after a resume) and
 * changes nothing, as does one that does not apply (an answer to an ended
 * interaction, a second delivery).
 */
export function foldHostEvent(fold: HostFold, event: HostEvent): InteractionView | undefined {
  if (event.seq <= fold.seq) return undefined;
  fold.seq = event.seq;
  switch (event.type) {
    case 'interaction.requested': {
      if (fold.interactions.has(event.interaction.requestId)) return undefined;
      return put(fold, { ...event.interaction, status: 'pending', autoResolution: { status: 'disabled' } });
    }
    case 'interaction.resolved': {
      const view = pendingView(fold, event.resolution.requestId);
      return view && put(fold, { ...view, status: 'resolved', resolution: event.resolution });
    }
    case 'interaction.withdrawn': {
      const known = fold.interactions.get(event.requestId);
      // An answer the agent refused (its terminal's came first) is withdrawn after it was resolved (R18.25).
      const view =
        known?.status === 'pending' || (event.afterAnswer && known?.status === 'resolved') ? known : undefined;
      if (!view) return undefined;
      const withdrawn: InteractionView = { ...view, status: 'withdrawn', withdrawnAt: event.at };
      if (event.reason !== undefined) withdrawn.withdrawnReason = event.reason;
      if (event.terminalAnswer !== undefined) withdrawn.terminalAnswer = event.terminalAnswer;
      return put(fold, withdrawn);
    }
    case 'interaction.delivered': {
      const view = fold.interactions.get(event.requestId);
      if (view?.status !== 'resolved' || view.deliveredAt !== undefined) return undefined;
      return put(fold, { ...view, deliveredAt: event.at });
    }
    case 'interaction.reopened': {
      // Only an answer the agent never acknowledged can have been lost with the host's memory (R12.13).
      const view = fold.interactions.get(event.requestId);
      if (view?.status !== 'resolved' || view.deliveredAt !== undefined) return undefined;
      const { resolution: _lost, ...asked } = view;
      return put(fold, { ...asked, status: 'pending', autoResolution: { status: 'disabled' } });
    }
    case 'interaction.handed-over': {
      const view = pendingView(fold, event.requestId);
      if (!view) return undefined;
      return put(fold, {
        ...view,
        handedOver: { to: event.to, ...(event.by !== undefined ? { by: event.by } : {}), at: event.at },
      });
    }
    case 'UserInputAutoResolutionUpdated': {
      const view = pendingView(fold, event.requestId);
      return view && put(fold, { ...view, autoResolution: event.autoResolution });
    }
    case 'preferences.updated':
      fold.preferences = event.preferences;
      return undefined;
    case 'device.paired':
      if (!fold.devices.has(event.device.id))
        fold.devices.set(event.device.id, { ...event.device, pairedAt: event.at });
      return undefined;
    case 'device.renamed': {
      const device = fold.devices.get(event.deviceId);
      if (device && device.revokedAt === undefined) fold.devices.set(device.id, { ...device, name: event.name });
      return undefined;
    }
    case 'device.revoked': {
      const device = fold.devices.get(event.deviceId);
      if (device && device.revokedAt === undefined) fold.devices.set(device.id, { ...device, revokedAt: event.at });
      return undefined;
    }
    case 'machine.joined':
      if (!fold.machines.has(event.machine.id))
        fold.machines.set(event.machine.id, { ...event.machine, joinedAt: event.at });
      return undefined;
    case 'machine.revoked': {
      const machine = fold.machines.get(event.machineId);
      if (machine && machine.revokedAt === undefined)
        fold.machines.set(machine.id, { ...machine, revokedAt: event.at });
      return undefined;
    }
    case 'person.added':
      if (!fold.people.has(event.person.id)) fold.people.set(event.person.id, { ...event.person, addedAt: event.at });
      return undefined;
    case 'person.signed-in': {
      const person = fold.people.get(event.personId);
      // The profile is what the provider said this time: a claim it no longer sends is gone.
      if (person)
        fold.people.set(person.id, {
          id: person.id,
          issuer: person.issuer,
          subject: person.subject,
          role: person.role,
          addedAt: person.addedAt,
          ...event.profile,
          lastSignInAt: event.at,
          ...(person.removedAt !== undefined ? { removedAt: person.removedAt } : {}),
        });
      return undefined;
    }
    case 'person.removed': {
      const person = fold.people.get(event.personId);
      if (person && person.removedAt === undefined) fold.people.set(person.id, { ...person, removedAt: event.at });
      return undefined;
    }
    case 'person.role-changed': {
      const person = fold.people.get(event.personId);
      // The owner stays the owner: no event may take that role away or give it (R21.19).
      if (person && person.role !== 'owner' && person.removedAt === undefined)
        fold.people.set(person.id, { ...person, role: event.role });
      return undefined;
    }
    case 'group.saved':
      fold.groups.set(event.group.id, event.group);
      return undefined;
    case 'group.removed':
      fold.groups.delete(event.groupId);
      return undefined;
    case 'person.join-code-minted':
    case 'group.join-code-minted':
    case 'audit.recorded':
      return undefined;
    default:
      return assertNever(event);
  }
}

/** Paired devices not revoked, oldest first (the order they paired in). */
export function activeDevices(fold: Pick<HostFold, 'devices'>): DeviceRecord[] {
  return [...fold.devices.values()].filter((device) => device.revokedAt === undefined);
}

/** Joined machines not revoked, oldest first (the order they joined in). */
export function activeMachines(fold: Pick<HostFold, 'machines'>): MachineRecord[] {
  return [...fold.machines.values()].filter((machine) => machine.revokedAt === undefined);
}

function pendingView(fold: HostFold, requestId: string): InteractionView | undefined {
  const view = fold.interactions.get(requestId);
  return view?.status === 'pending' ? view : undefined;
}

function put(fold: HostFold, view: InteractionView): InteractionView {
  fold.interactions.set(view.requestId, view);
  return view;
}

function assertNever(value: never): never {
  throw new Error(`Unhandled host event ${JSON.stringify(value)}`);
}
