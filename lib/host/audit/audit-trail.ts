import {
  AuditEntrySchema,
  type AuditAction,
  type AuditActor,
  type AuditEntry,
  type AuditTarget,
  type AuditVia,
  type InteractionResolution,
  type InteractionResponse,
  type InteractionView,
  type NewHostEvent,
  personLabel,
} from '../../contracts';
import { type HostProjection } from '../projection';
import { RefusalBound } from './refusal-bound';

/** An audit event as the log takes it, before its seq. */
export type NewAuditEvent = Extract<NewHostEvent, { type: 'audit.recorded' }>;

/** Who acts, as a route or socket knows them: a device's credential, or the admin token; where from, and how. */
export type AuditBy = { deviceId: string; address?: string; via: AuditVia } | { admin: true; address?: string };

/** What a service's decision records about `subject`, in the same commit as what it did, at the action's time. */
export type AuditOf<T> = (subject: T, at: string) => NewAuditEvent[];

/**
 * A team hub's audit record (R21.21, R21.60–R21.69): builds the `audit.recorded` events each action appends in
 * the SAME commit as the action itself (a registry decision returns both), so there is never an answer without
 * its record nor a record of an answer that did not happen. A hub without people has no trail: its log is
 * exactly as before.
 *
 * How host code records an action (team-core's hand-over, role changes and groups are wired the same way):
 *
 *   const trail = host.audit;                          // undefined on a personal hub
 *   await registry.recordPersonEvents(() => [
 *     { type: 'person.role-changed', at, personId, role },
 *     ...(trail?.record({ action: 'role-changed', outcome: 'done', actor: trail.actor(by),
 *                         target: trail.personTarget(personId), detail: `role ${role}` }, at) ?? []),
 *   ]);
 *
 * `actor(by)` names the person and device from the log as it is now; `by` is `{deviceId, address, via}` for a
 * device (socket: the handshake's request address; HTTP: `clientAddress(req)`) or `{admin: true, address}` for
 * the CLI's admin token. A refusal goes through `refused(deviceId, entry, at)`, which keeps one credential from
 * flooding the log.
 */
export class AuditTrail {
  private readonly bound: RefusalBound;

  constructor(
    private readonly projection: HostProjection,
    options: { now?: () => number; refusedPerMinute?: number } = {},
  ) {
    this.bound = new RefusalBound(options.refusedPerMinute ?? 5, options.now ?? Date.now);
  }

  /** The actor of `by`, named as the log has them now. */
  actor(by: AuditBy): AuditActor {
    const address = by.address === undefined ? {} : { address: by.address.slice(0, 64) };
    if ('admin' in by) return { via: 'cli', ...address };
    const device = this.projection.devices.get(by.deviceId);
    const person = device?.personId === undefined ? undefined : this.projection.people.get(device.personId);
    return {
      ...(person ? { personId: person.id, personName: shownName(personLabel(person)) } : {}),
      deviceId: by.deviceId,
      ...(device ? { deviceName: shownName(device.name) } : {}),
      ...address,
      via: by.via,
    };
  }

  /** One entry as the event the action's commit appends. */
  record(entry: AuditEntry, at: string): NewAuditEvent[] {
    // The log's reader refuses an event its schema does not take: a name or detail that would not fit is cut, and
    // an entry still refused is a bug worth failing the action for, never a record that makes the log unreadable.
    const parsed = AuditEntrySchema.parse({
      ...entry,
      ...(entry.detail !== undefined ? { detail: entry.detail.slice(0, 500) } : {}),
    });
    return [{ type: 'audit.recorded', at, entry: parsed }];
  }

  /**
   * A refused attempt by a device (R21.62): recorded unless this device already had its share this minute; the
   * ones left out are counted into the next record's detail.
   */
  refused(deviceId: string, entry: Omit<AuditEntry, 'outcome'>, at: string): NewAuditEvent[] {
    const admitted = this.bound.admit(deviceId);
    if (admitted === undefined) return [];
    const more =
      admitted.unrecorded > 0 ? `${admitted.unrecorded} more refused attempt(s) from this device not recorded` : '';
    const detail = [entry.detail, more].filter((part) => part !== undefined && part !== '').join('; ');
    return this.record({ ...entry, outcome: 'refused', ...(detail !== '' ? { detail } : {}) }, at);
  }

  /** An action done by `by` on what `target` names: the callback a service's decision calls with its subject. */
  done<T>(by: AuditBy, action: AuditAction, target: (subject: T) => AuditTarget, detail?: string): AuditOf<T> {
    return (subject, at) =>
      this.record(
        { action, outcome: 'done', actor: this.actor(by), target: target(subject), ...(detail ? { detail } : {}) },
        at,
      );
  }

  /**
   * A device paired (R21.60): the actor is the new device and, after a sign-in, its person; `via` says how
   * (`sign-in`, or `app` for a pairing link's code).
   */
  paired(address: string | undefined): AuditOf<{ deviceId: string; name: string; personId?: string }> {
    return ({ deviceId, name, personId }, at) => {
      const person = personId === undefined ? undefined : this.projection.people.get(personId);
      const actor: AuditActor = {
        ...(person ? { personId: person.id, personName: shownName(personLabel(person)) } : {}),
        deviceId,
        deviceName: shownName(name),
        ...(address !== undefined ? { address: address.slice(0, 64) } : {}),
        via: person ? 'sign-in' : 'app',
      };
      return this.record({ action: 'pairing', outcome: 'done', actor, target: this.deviceTarget(deviceId, name) }, at);
    };
  }

  /** A person signed in at the provider (R21.60): they are the actor, with no device yet. */
  signedIn(address: string | undefined): AuditOf<{ personId: string; name: string }> {
    return ({ personId, name }, at) => {
      const actor: AuditActor = {
        personId,
        personName: shownName(name),
        ...(address !== undefined ? { address: address.slice(0, 64) } : {}),
        via: 'sign-in',
      };
      return this.record(
        { action: 'sign-in', outcome: 'done', actor, target: { kind: 'person', id: personId, name: shownName(name) } },
        at,
      );
    };
  }

  /** A machine joined with a code (R21.60): the actor is the machine's person, if the code was minted for one. */
  joined(address: string | undefined, personId: string | undefined): AuditOf<{ id: string; name: string }> {
    return (machine, at) => {
      const person = personId === undefined ? undefined : this.projection.people.get(personId);
      const actor: AuditActor = {
        ...(person ? { personId: person.id, personName: shownName(personLabel(person)) } : {}),
        ...(address !== undefined ? { address: address.slice(0, 64) } : {}),
        via: 'join',
      };
      return this.record(
        { action: 'machine-joined', outcome: 'done', actor, target: this.machineTarget(machine.id, machine.name) },
        at,
      );
    };
  }

  /** The events recording a device's answer, skip or decline of `view`. */
  answered(by: AuditBy, view: InteractionView, resolution: InteractionResolution): NewAuditEvent[] {
    return this.record(
      {
        action: answerAction(resolution.response),
        outcome: 'done',
        actor: this.actor(by),
        target: questionTarget(view),
      },
      resolution.resolvedAt,
    );
  }

  personTarget(personId: string): AuditTarget {
    const person = this.projection.people.get(personId);
    return { kind: 'person', id: personId, ...(person ? { name: shownName(personLabel(person)) } : {}) };
  }

  deviceTarget(deviceId: string, name?: string): AuditTarget {
    const shown = name ?? this.projection.devices.get(deviceId)?.name;
    return { kind: 'device', id: deviceId, ...(shown !== undefined ? { name: shownName(shown) } : {}) };
  }

  machineTarget(machineId: string, name?: string): AuditTarget {
    const shown = name ?? this.projection.machines.get(machineId)?.name;
    return { kind: 'machine', id: machineId, ...(shown !== undefined ? { name: shownName(shown) } : {}) };
  }
}

/** What an answer is in the record: an accept answers, a cancel skips, a decline declines. */
export function answerAction(response: InteractionResponse): AuditAction {
  return response.action === 'accept' ? 'answer' : response.action === 'cancel' ? 'skip' : 'decline';
}

/** A question as its record names it: its id and its tool. */
export function questionTarget(view: Pick<InteractionView, 'requestId' | 'toolName'>): AuditTarget {
  return { kind: 'question', id: view.requestId, name: shownName(view.toolName) };
}

/** A name the entry's schema takes: printable, not empty, at most 320 characters. */
function shownName(name: string): string {
  const printable = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, 320);
  return printable === '' ? '?' : printable;
}
