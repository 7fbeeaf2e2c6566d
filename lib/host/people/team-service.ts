import { randomBytes } from 'node:crypto';
import {
  personLabel,
  type AuditAction,
  type AuditTarget,
  type GroupInput,
  type GroupRecord,
  type PersonNameRef,
  type PersonRecord,
  type TeamView,
} from '../../contracts';
import { type AuditTrail, type AuditBy, questionTarget } from '../audit/audit-trail';
import { codeDigest } from '../auth/one-time-codes';
import { type InteractionRegistry, type NewTeamEvent } from '../registry';
import { personRef } from './person-ref';
import { groupsOf, isGroupMember, managesTeam } from './question-visibility';

/**
 * Who asks for a change: the hub's operator (the admin token: `askaway people role`, `askaway groups`), or a paired
 * device (the app), whose person's role decides what it may do (R21.19).
 */
export type TeamActor = ({ kind: 'operator' } | { kind: 'device'; deviceId: string }) & {
  /** The client's address, for the audit record (R21.21). */
  address?: string;
};

/** Why a change was refused, with the HTTP status its route answers. */
export interface TeamRefusal {
  ok: false;
  status: 400 | 403 | 404 | 409;
  code: 'invalid-request' | 'forbidden' | 'not-found' | 'conflict';
  message: string;
}

export type TeamOutcome<T> = ({ ok: true } & T) | TeamRefusal;

const refuse = (status: TeamRefusal['status'], code: TeamRefusal['code'], message: string): TeamRefusal => ({
  ok: false,
  status,
  code,
  message,
});
const NOT_A_MANAGER = refuse(403, 'forbidden', 'Only the hub’s owner and admins manage its people and groups');

/** Who is acting, as the log has it now: the operator, or a device's person (none once removed or revoked). */
type ResolvedActor =
  { kind: 'operator'; deviceId?: string } | { kind: 'person'; person: PersonRecord; deviceId: string };

/**
 * A team hub's groups, roles and hand-overs (R21.18, R21.19, R21.23). Every rule is decided inside the log's write
 * queue against the log as it is at its head (`recordTeamEvents`), so two replicas cannot both pass a check that
 * only one of them should: an admin demoted on one replica cannot hand a question over on the other a moment later.
 */
export class TeamService {
  constructor(
    private readonly registry: InteractionRegistry,
    private readonly now: () => Date = () => new Date(),
    /** The team hub's audit record (R21.21): each change is recorded in its own commit, a refused one too. */
    private readonly audit?: AuditTrail,
  ) {}

  /** The team as this actor may see it (R21.24): everyone for owner, admins and the operator; a member themselves. */
  view(actor: TeamActor): TeamView | TeamRefusal {
    const resolved = this.resolve(actor);
    if (!resolved) return NOT_A_MANAGER;
    const fold = this.registry.projection;
    const all = [...fold.people.values()];
    const teamPerson = (person: PersonRecord) => ({
      ...personRef(person),
      ...(person.lastSignInAt !== undefined ? { lastSignInAt: person.lastSignInAt } : {}),
      ...(person.removedAt !== undefined ? { removedAt: person.removedAt } : {}),
      groups: groupsOf(fold, person),
    });
    if (resolved.kind === 'operator' || managesTeam(resolved.person))
      return {
        me: resolved.kind === 'person' ? personRef(resolved.person) : null,
        canManage: true,
        people: all.map(teamPerson),
        groups: [...fold.groups.values()],
      };
    const { person } = resolved;
    return {
      me: personRef(person),
      canManage: false,
      people: [teamPerson(person)],
      groups: [...fold.groups.values()].filter((group) => isGroupMember(group, person)),
    };
  }

  /** Makes someone an admin or a member (R21.19); the owner's role never changes. */
  async changeRole(
    actor: TeamActor,
    personId: string,
    role: 'admin' | 'member',
  ): Promise<TeamOutcome<{ person: PersonRecord }>> {
    let refusal: TeamRefusal | undefined;
    await this.registry.recordTeamEvents(() => {
      const manager = this.manager(actor);
      const person = this.registry.projection.people.get(personId);
      refusal = !manager
        ? NOT_A_MANAGER
        : !person || person.removedAt !== undefined
          ? unknownPerson(personId)
          : person.role === 'owner'
            ? refuse(409, 'conflict', 'The owner’s role does not change')
            : undefined;
      const at = this.at();
      const target = () => ({
        kind: 'person' as const,
        id: personId,
        ...(person ? { name: personLabel(person) } : {}),
      });
      if (refusal) return this.refused(actor, 'role-changed', target(), refusal, at);
      if (person?.role === role || !manager) return [];
      return [
        { type: 'person.role-changed', at, personId, role, ...byPerson(manager) },
        ...this.recorded(actor, 'role-changed', target(), at, `role ${role}`),
      ];
    });
    return refusal ?? { ok: true, person: this.personNow(personId) };
  }

  /**
   * Whether this actor may remove this person, at the log's head (R21.19, R21.20): the owner anyone but themselves,
   * an admin members only, the operator anyone but the owner (PeopleService refuses the owner for all).
   */
  removalRefusal(actor: TeamActor, personId: string): TeamRefusal | undefined {
    const manager = this.manager(actor);
    if (!manager) return NOT_A_MANAGER;
    const person = this.registry.projection.people.get(personId);
    if (!person || person.removedAt !== undefined) return unknownPerson(personId);
    if (manager.kind === 'person' && manager.person.role === 'admin' && person.role !== 'member')
      return refuse(403, 'forbidden', 'An admin removes members only; ask the owner');
    return undefined;
  }

  /** Creates a group (`groupId` undefined) or changes one (R21.18); every member must be on the hub. */
  async saveGroup(
    actor: TeamActor,
    groupId: string | undefined,
    input: GroupInput,
  ): Promise<TeamOutcome<{ group: GroupRecord }>> {
    let refusal: TeamRefusal | undefined;
    let saved: GroupRecord | undefined;
    await this.registry.recordTeamEvents(() => {
      saved = undefined;
      const manager = this.manager(actor);
      const fold = this.registry.projection;
      const name = input.name.trim();
      const missing = input.members.filter((id) => {
        const person = fold.people.get(id);
        return !person || person.removedAt !== undefined;
      });
      const clash = [...fold.groups.values()].find(
        (group) => group.id !== groupId && group.name.toLowerCase() === name.toLowerCase(),
      );
      refusal = !manager
        ? NOT_A_MANAGER
        : groupId !== undefined && !fold.groups.has(groupId)
          ? unknownGroup(groupId)
          : missing.length > 0
            ? refuse(400, 'invalid-request', `No person ${missing.join(', ')} on this hub (see \`askaway people\`)`)
            : clash
              ? refuse(409, 'conflict', `There is already a group named "${clash.name}"`)
              : undefined;
      const at = this.at();
      if (refusal) return this.refused(actor, 'group-saved', groupTarget(groupId ?? 'new', name), refusal, at);
      if (!manager) return [];
      saved = {
        id: groupId ?? this.newGroupId(),
        name,
        members: [...new Set(input.members)],
        ...(input.providerGroup !== undefined ? { providerGroup: input.providerGroup } : {}),
      };
      return [
        { type: 'group.saved', at, group: saved, ...byPerson(manager) },
        ...this.recorded(actor, 'group-saved', groupTarget(saved.id, saved.name), at, membersDetail(saved)),
      ];
    });
    if (refusal) return refusal;
    if (!saved) throw new Error('the group was decided but not saved');
    return { ok: true, group: saved };
  }

  /** Removes a group (R21.18): its machines' questions go to the owner and admins only from then on. */
  async removeGroup(actor: TeamActor, groupId: string): Promise<TeamOutcome<{ group: GroupRecord }>> {
    let refusal: TeamRefusal | undefined;
    let removed: GroupRecord | undefined;
    await this.registry.recordTeamEvents(() => {
      const manager = this.manager(actor);
      removed = this.registry.projection.groups.get(groupId);
      refusal = !manager ? NOT_A_MANAGER : !removed ? unknownGroup(groupId) : undefined;
      const at = this.at();
      const target = groupTarget(groupId, removed?.name);
      if (refusal) return this.refused(actor, 'group-removed', target, refusal, at);
      if (!manager) return [];
      return [
        { type: 'group.removed', at, groupId, ...byPerson(manager) },
        ...this.recorded(actor, 'group-removed', target, at),
      ];
    });
    if (refusal) return refusal;
    if (!removed) throw new Error('the group was removed but was not there');
    return { ok: true, group: removed };
  }

  /**
   * Records a join code for a group's shared machine before anyone sees it (R21.18): the machine that joins with it
   * is the group's. Refused when the group is gone or the actor may not invite for it.
   */
  async groupJoinCodeMinted(actor: TeamActor, groupId: string, joinCode: string): Promise<TeamRefusal | undefined> {
    let refusal: TeamRefusal | undefined;
    await this.registry.recordTeamEvents(() => {
      const manager = this.manager(actor);
      refusal = !manager
        ? NOT_A_MANAGER
        : !this.registry.projection.groups.has(groupId)
          ? unknownGroup(groupId)
          : undefined;
      const at = this.at();
      const target = groupTarget(groupId, this.registry.projection.groups.get(groupId)?.name);
      if (refusal) return this.refused(actor, 'join-code-minted', target, refusal, at);
      if (!manager) return [];
      return [
        {
          type: 'group.join-code-minted',
          at,
          groupId,
          ...(manager.deviceId !== undefined ? { byDeviceId: manager.deviceId } : {}),
          joinCode: codeDigest(joinCode).toString('hex'),
        },
        ...this.recorded(actor, 'join-code-minted', target, at),
      ];
    });
    return refusal;
  }

  /**
   * Records a join code an owner's, admin's or the operator's device minted for another person's machine (R21.19),
   * before anyone sees it; refused at the log's head when the actor may not or the person is gone.
   */
  async personJoinCodeMinted(actor: TeamActor, personId: string, joinCode: string): Promise<TeamRefusal | undefined> {
    let refusal: TeamRefusal | undefined;
    await this.registry.recordTeamEvents(() => {
      const manager = this.manager(actor);
      refusal = this.personInviteRefusal(actor, personId);
      const at = this.at();
      const person = this.registry.projection.people.get(personId);
      const target = { kind: 'person' as const, id: personId, ...(person ? { name: personLabel(person) } : {}) };
      if (refusal) return this.refused(actor, 'join-code-minted', target, refusal, at);
      if (!manager) return [];
      return [
        {
          type: 'person.join-code-minted',
          at,
          personId,
          ...(manager.deviceId !== undefined ? { byDeviceId: manager.deviceId } : {}),
          joinCode: codeDigest(joinCode).toString('hex'),
        },
        ...this.recorded(actor, 'join-code-minted', target, at),
      ];
    });
    return refusal;
  }

  /** Whether this actor may invite a machine for this person (R21.19), as the log has it now. */
  personInviteRefusal(actor: TeamActor, personId: string): TeamRefusal | undefined {
    if (!this.manager(actor)) return NOT_A_MANAGER;
    const person = this.registry.projection.people.get(personId);
    return person && person.removedAt === undefined ? undefined : unknownPerson(personId);
  }

  /** Whether this actor may invite a machine for a group (R21.19), as the log has it now: checked before minting. */
  mayInviteFor(actor: TeamActor, groupId: string): TeamRefusal | undefined {
    if (!this.manager(actor)) return NOT_A_MANAGER;
    return this.registry.projection.groups.has(groupId) ? undefined : unknownGroup(groupId);
  }

  /**
   * Gives a pending question to someone else (R21.23): from the event on it is theirs (and seen by whoever sees
   * everything); the person it was for no longer sees it.
   */
  async handOver(actor: TeamActor, requestId: string, toPersonId: string): Promise<TeamOutcome<{ to: PersonNameRef }>> {
    let refusal: TeamRefusal | undefined;
    let to: PersonNameRef | undefined;
    await this.registry.recordTeamEvents(() => {
      const manager = this.manager(actor);
      const fold = this.registry.projection;
      const view = fold.get(requestId);
      const person = fold.people.get(toPersonId);
      refusal = !manager
        ? NOT_A_MANAGER
        : !view
          ? refuse(404, 'not-found', `No interaction ${requestId}`)
          : view.status !== 'pending'
            ? refuse(409, 'conflict', `Interaction ${requestId} is no longer waiting: it was answered or withdrawn`)
            : !person || person.removedAt !== undefined
              ? unknownPerson(toPersonId)
              : undefined;
      const at = this.at();
      // Only an existing question is named in a refused hand-over's record: a guessed id records nothing.
      if (refusal) return view ? this.refused(actor, 'hand-over', questionTarget(view), refusal, at) : [];
      if (!manager || !person || !view) return [];
      to = { id: person.id, name: personLabel(person) };
      return [
        {
          type: 'interaction.handed-over',
          at,
          requestId,
          to,
          ...(manager.kind === 'person' ? { by: { id: manager.person.id, name: personLabel(manager.person) } } : {}),
          ...(manager.deviceId !== undefined ? { byDeviceId: manager.deviceId } : {}),
        } satisfies NewTeamEvent,
        ...this.recorded(actor, 'hand-over', questionTarget(view), at, `to ${to.name}`),
      ];
    });
    if (refusal) return refusal;
    if (!to) throw new Error('the hand-over was decided but not written');
    return { ok: true, to };
  }

  /** The audit record of a change done, in the change's own commit (R21.21). */
  private recorded(actor: TeamActor, action: AuditAction, target: AuditTarget, at: string, detail?: string) {
    const { audit } = this;
    if (!audit) return [];
    return audit.record(
      { action, outcome: 'done', actor: audit.actor(auditBy(actor)), target, ...(detail ? { detail } : {}) },
      at,
    );
  }

  /**
   * The audit record of a refused change (R21.62): a device's refusals are bounded per minute so a credential
   * cannot flood the log; the operator's (the admin token's) are its own mistakes and not recorded.
   */
  private refused(actor: TeamActor, action: AuditAction, target: AuditTarget, refusal: TeamRefusal, at: string) {
    const { audit } = this;
    if (!audit || actor.kind !== 'device') return [];
    return audit.refused(
      actor.deviceId,
      { action, actor: audit.actor(auditBy(actor)), target, detail: refusal.message },
      at,
    );
  }

  /**
   * Whether this device manages the team as the log has it now: an owner's, an admin's or the operator's (paired
   * with a link from `askaway pair`). Such a device also reads the audit record (R21.67).
   */
  managedFrom(deviceId: string): boolean {
    return this.manager({ kind: 'device', deviceId }) !== undefined;
  }

  /** The actor as the log has them now; undefined for a removed person's or a revoked device. */
  private resolve(actor: TeamActor): ResolvedActor | undefined {
    if (actor.kind === 'operator') return { kind: 'operator' };
    const fold = this.registry.projection;
    const device = fold.devices.get(actor.deviceId);
    if (!device || device.revokedAt !== undefined) return undefined;
    // Paired with a link from `askaway pair`: the operator's device (R21.17).
    if (device.personId === undefined) return { kind: 'operator', deviceId: device.id };
    const person = fold.people.get(device.personId);
    return person && person.removedAt === undefined ? { kind: 'person', person, deviceId: device.id } : undefined;
  }

  /** The actor when they may manage the team (owner, admin, operator), else undefined. */
  private manager(actor: TeamActor): ResolvedActor | undefined {
    const resolved = this.resolve(actor);
    return resolved && (resolved.kind === 'operator' || managesTeam(resolved.person)) ? resolved : undefined;
  }

  private personNow(personId: string): PersonRecord {
    const person = this.registry.projection.people.get(personId);
    if (!person) throw new Error('the role change was written but the person is not in the log');
    return person;
  }

  private newGroupId(): string {
    const known = this.registry.projection.groups;
    let id = randomBytes(8).toString('hex');
    while (known.has(id)) id = randomBytes(8).toString('hex');
    return id;
  }

  private at(): string {
    return this.now().toISOString();
  }
}

function byPerson(actor: ResolvedActor): { byPersonId?: string } {
  return actor.kind === 'person' ? { byPersonId: actor.person.id } : {};
}

/** Who acted, as the audit record names them: a device from the app, or the admin token from the CLI. */
function auditBy(actor: TeamActor): AuditBy {
  const address = actor.address !== undefined ? { address: actor.address } : {};
  return actor.kind === 'device' ? { deviceId: actor.deviceId, via: 'app', ...address } : { admin: true, ...address };
}

function groupTarget(id: string, name: string | undefined): AuditTarget {
  return { kind: 'group', id, ...(name !== undefined ? { name } : {}) };
}

function membersDetail(group: GroupRecord): string {
  const provider = group.providerGroup !== undefined ? ` and the provider group "${group.providerGroup}"` : '';
  return `${group.members.length} member(s)${provider}`;
}

function unknownPerson(personId: string): TeamRefusal {
  return refuse(404, 'not-found', `No person ${personId} on this hub (see \`askaway people\`)`);
}

function unknownGroup(groupId: string): TeamRefusal {
  return refuse(404, 'not-found', `No group ${groupId} on this hub (see \`askaway groups\`)`);
}
