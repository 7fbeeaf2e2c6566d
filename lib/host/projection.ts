import {
  DEFAULT_PREFERENCES,
  type DeviceRecord,
  type GroupRecord,
  type HostEvent,
  type InteractionView,
  type MachineRecord,
  type PersonRecord,
  type Preferences,
  type QuestionOwner,
} from '../contracts';
import { activeDevices, emptyHostFold, foldHostEvent } from '../state/host-fold';
import { listScopeOf, type ListScope } from './people/lists-for-device';
import { deviceSees, deviceSeesAll, questionOwner, type VisibleQuestion } from './people/question-visibility';
import { AuditIndex } from './audit/audit-index';

/**
 * Pending interactions, history, delivery and preferences as a fold of the log
 * (R10.2). The host rebuilds it at start and applies each event it appends, so
 * memory and disk can never disagree. The fold itself is shared with the PWA;
 * this adds the indexes the host's queries need, kept from each view's status.
 */
export class HostProjection {
  private readonly fold = emptyHostFold();
  /** Where a team hub's audit entries are in the log (R21.60): their seqs and times, not the entries. */
  readonly audit = new AuditIndex();
  /** requestIds in the order they left the pending list (history order). */
  private readonly ended: string[] = [];
  /** Kept apart so pending() costs the inbox's size, not the whole history's; in the order they were asked. */
  private readonly pendingById = new Map<string, InteractionView>();
  /** The seq of each pending interaction's request: where a page of them ends (R12.7). */
  private readonly requestedSeq = new Map<string, number>();
  /** How many interactions each machine has waiting (R12.7). */
  private readonly pendingByMachine = new Map<string, number>();
  /** `issuer + ' ' + subject` → person id (R21.8). */
  private readonly personByIdentity = new Map<string, string>();
  /**
   * A sign-in's pairing code digest → the person who signed in (R21.12). The code itself works once and for at
   * most a day (`--pair-ttl`), so grants older than that are dropped as new sign-ins come.
   */
  private readonly pairingGrants = new Map<string, { personId: string; atMs: number }>();
  /** A join code's digest → the person whose device minted it (R21.15); dropped like pairing grants. */
  private readonly joinGrants = new Map<string, { personId: string; atMs: number }>();
  /** A join code's digest → the group whose shared machine joins with it (R21.18); dropped like pairing grants. */
  private readonly groupJoinGrants = new Map<string, { groupId: string; atMs: number }>();

  get interactions(): ReadonlyMap<string, InteractionView> {
    return this.fold.interactions;
  }

  get seq(): number {
    return this.fold.seq;
  }

  /** What the log last set, else the defaults. */
  get preferences(): Preferences {
    return this.fold.preferences ?? DEFAULT_PREFERENCES;
  }

  /** Every device ever paired, revoked ones included (R16.4, R16.5). */
  get devices(): ReadonlyMap<string, DeviceRecord> {
    return this.fold.devices;
  }

  /** Every machine ever joined, revoked ones included (R17.1, R17.2). */
  get machines(): ReadonlyMap<string, MachineRecord> {
    return this.fold.machines;
  }

  /** Every person who ever signed in to a team hub (R21.8). */
  get people(): ReadonlyMap<string, PersonRecord> {
    return this.fold.people;
  }

  /** A team hub's groups, by id (R21.18). */
  get groups(): ReadonlyMap<string, GroupRecord> {
    return this.fold.groups;
  }

  personByProviderIdentity(issuer: string, subject: string): PersonRecord | undefined {
    const id = this.personByIdentity.get(identityKey(issuer, subject));
    return id === undefined ? undefined : this.fold.people.get(id);
  }

  /** The person whose sign-in minted the pairing code with this digest, while no device has used it (R21.12). */
  personForPairing(digestHex: string): PersonRecord | undefined {
    const grant = this.pairingGrants.get(digestHex);
    return grant === undefined ? undefined : this.fold.people.get(grant.personId);
  }

  /** The person whose device minted the join code with this digest (R21.15). */
  personForJoinCode(digestHex: string): PersonRecord | undefined {
    const grant = this.joinGrants.get(digestHex);
    return grant === undefined ? undefined : this.fold.people.get(grant.personId);
  }

  /** The group whose join code has this digest (R21.18), while the group exists. */
  groupForJoinCode(digestHex: string): GroupRecord | undefined {
    const grant = this.groupJoinGrants.get(digestHex);
    return grant === undefined ? undefined : this.fold.groups.get(grant.groupId);
  }

  /** Whose a new question of this machine is (R21.15, R21.16, R21.18); undefined on a hub without people. */
  questionOwner(machineId: string): QuestionOwner | undefined {
    return questionOwner(this.fold, machineId);
  }

  /** The person a device belongs to, if any (R21.12). */
  personOfDevice(deviceId: string): PersonRecord | undefined {
    const personId = this.fold.devices.get(deviceId)?.personId;
    return personId === undefined ? undefined : this.fold.people.get(personId);
  }

  /** Whether this device may see, be notified of and answer this question (R21.17, R21.18, R21.23). */
  deviceSees(deviceId: string, view: VisibleQuestion): boolean {
    return deviceSees(this.fold, deviceId, view);
  }

  /** Whether this device sees every question: a hub without people, the owner's and admins' devices (R21.17). */
  deviceSeesAll(deviceId: string): boolean {
    return deviceSeesAll(this.fold, deviceId);
  }

  /** Which devices and machines this device's lists show (R21.19); undefined: all of them. */
  listScope(deviceId: string): ListScope | undefined {
    return listScopeOf(this.fold, deviceId);
  }

  /** Paired devices not revoked, in the order they paired. */
  activeDevices(): DeviceRecord[] {
    return activeDevices(this.fold);
  }

  /** Folds one event in; returns the interaction it changed, if any. */
  apply(event: HostEvent): InteractionView | undefined {
    this.indexPeople(event);
    if (event.type === 'audit.recorded' && event.seq > this.fold.seq) this.audit.add(event.seq, event.at);
    const view = foldHostEvent(this.fold, event);
    if (!view) return undefined;
    const machineId = view.machine.id;
    if (view.status === 'pending') {
      if (!this.pendingById.has(view.requestId)) {
        // Reopened (R12.13): it leaves History until it ends again. Rare (a restart), so a scan is fine.
        const ended = event.type === 'interaction.reopened' ? this.ended.lastIndexOf(view.requestId) : -1;
        if (ended >= 0) this.ended.splice(ended, 1);
        this.requestedSeq.set(view.requestId, event.seq);
        this.pendingByMachine.set(machineId, (this.pendingByMachine.get(machineId) ?? 0) + 1);
      }
      this.pendingById.set(view.requestId, view);
    } else if (this.pendingById.delete(view.requestId)) {
      this.ended.push(view.requestId);
      this.requestedSeq.delete(view.requestId);
      const left = (this.pendingByMachine.get(machineId) ?? 1) - 1;
      if (left > 0) this.pendingByMachine.set(machineId, left);
      else this.pendingByMachine.delete(machineId);
    }
    return view;
  }

  private indexPeople(event: HostEvent): void {
    if (event.seq <= this.fold.seq) return;
    if (event.type === 'person.added')
      this.personByIdentity.set(identityKey(event.person.issuer, event.person.subject), event.person.id);
    else if (event.type === 'person.signed-in') {
      const atMs = Date.parse(event.at);
      for (const [digest, grant] of this.pairingGrants)
        if (atMs - grant.atMs > GRANT_KEPT_MS) this.pairingGrants.delete(digest);
      this.pairingGrants.set(event.pairing, { personId: event.personId, atMs });
    } else if (event.type === 'person.join-code-minted') {
      const atMs = Date.parse(event.at);
      for (const [digest, grant] of this.joinGrants)
        if (atMs - grant.atMs > GRANT_KEPT_MS) this.joinGrants.delete(digest);
      this.joinGrants.set(event.joinCode, { personId: event.personId, atMs });
    } else if (event.type === 'group.join-code-minted') {
      const atMs = Date.parse(event.at);
      for (const [digest, grant] of this.groupJoinGrants)
        if (atMs - grant.atMs > GRANT_KEPT_MS) this.groupJoinGrants.delete(digest);
      this.groupJoinGrants.set(event.joinCode, { groupId: event.groupId, atMs });
    }
  }

  /** Interactions waiting, in all or from one machine. */
  pendingCount(machineId?: string): number {
    return machineId === undefined ? this.pendingById.size : (this.pendingByMachine.get(machineId) ?? 0);
  }

  /** Interactions waiting that `visible` lets through (a member's device, R21.17); all of them without it. */
  pendingCountFor(visible: ((view: InteractionView) => boolean) | undefined): number {
    if (!visible) return this.pendingById.size;
    let count = 0;
    for (const view of this.pendingById.values()) if (visible(view)) count += 1;
    return count;
  }

  /**
   * The pending interactions asked after the one whose request had seq `after` (0: from the first), oldest
   * first, as many as fit `maxCount` and `maxBytes` (at least one); `cursor` is where the next page starts,
   * absent when this page reaches the end (R12.7).
   */
  pendingPage(
    after: number,
    limits: {
      maxCount: number;
      maxBytes: number;
      sizeOf: (view: InteractionView) => number;
      visible?: (view: InteractionView) => boolean;
    },
  ): { views: InteractionView[]; cursor?: number } {
    const views: InteractionView[] = [];
    let bytes = 0;
    let last = after;
    for (const [requestId, view] of this.pendingById) {
      const seq = this.requestedSeq.get(requestId) ?? 0;
      if (seq <= after || (limits.visible && !limits.visible(view))) continue;
      const size = limits.sizeOf(view);
      if (views.length > 0 && (views.length >= limits.maxCount || bytes + size > limits.maxBytes)) {
        return { views, cursor: last };
      }
      views.push(view);
      bytes += size;
      last = seq;
    }
    return { views };
  }

  get(requestId: string): InteractionView | undefined {
    return this.fold.interactions.get(requestId);
  }

  /** Pending interactions, oldest first. */
  pending(): InteractionView[] {
    return [...this.pendingById.values()];
  }

  /** The most recently ended interactions, newest first; only those `visible` lets through, when given. */
  history(limit: number, visible?: (view: InteractionView) => boolean): InteractionView[] {
    const views: InteractionView[] = [];
    for (let index = this.ended.length - 1; index >= 0 && views.length < limit; index -= 1) {
      const view = this.fold.interactions.get(this.ended[index] ?? '');
      if (view && (!visible || visible(view))) views.push(view);
    }
    return views;
  }
}

/** The longest a pairing code lives (`--pair-ttl` at most 24 h). */
const GRANT_KEPT_MS = 24 * 3_600_000;

function identityKey(issuer: string, subject: string): string {
  return `${issuer} ${subject}`;
}
