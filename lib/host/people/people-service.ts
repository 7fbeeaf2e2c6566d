import { randomBytes } from 'node:crypto';
import {
  personLabel,
  type DeviceInfo,
  type MachineInfo,
  type NewPersonEvent,
  type PersonRecord,
  type PersonRole,
} from '../../contracts';
import { type AuditOf, type NewAuditEvent } from '../audit/audit-trail';
import { codeDigest } from '../auth/one-time-codes';
import { type DeviceService } from '../auth/devices';
import { type JoinCodeOwner, type MachineService } from '../auth/machines';
import { type InteractionRegistry } from '../registry';
import { type SignedInIdentity } from './oidc-client';
import { type TeamRefusal } from './team-service';

export interface PeopleServiceOptions {
  registry: InteractionRegistry;
  /** `--oidc-owner`: the verified email whose person becomes the owner (R21.9). */
  ownerEmail?: string;
  now?: () => Date;
}

/**
 * A team hub's people (R21.8–R21.12): who they are comes from the log (added and signed-in events, folded like
 * every other), keyed by the provider's issuer and subject. The role a newcomer gets is decided inside the log's
 * write queue, on the log as it is, so two replicas signing in two people at once still make one owner.
 */
/** A removed person signing in again (R21.20): the hub refuses them, whatever the provider said. */
export class PersonRemovedError extends Error {
  constructor() {
    super('this person was removed from the hub');
  }
}

export type PersonRevokeOutcome =
  | { ok: true; person: PersonRecord; devices: number; machines: number }
  | { ok: false; reason: 'unknown-person' | 'owner' }
  | { ok: false; reason: 'refused'; refusal: TeamRefusal };

export class PeopleService {
  constructor(private readonly options: PeopleServiceOptions) {}

  /**
   * Records a sign-in (R21.10): a newcomer is added first, with their role; the pairing code minted for their browser
   * is tied to them by its digest. Resolves with the person as the log now has them.
   */
  async signedIn(
    identity: SignedInIdentity,
    pairingCode: string,
    audit?: AuditOf<{ personId: string; name: string }>,
  ): Promise<PersonRecord> {
    const { registry } = this.options;
    let personId = '';
    await registry.recordPersonEvents(() => {
      const at = this.now().toISOString();
      const known = registry.projection.personByProviderIdentity(identity.issuer, identity.subject);
      if (known?.removedAt !== undefined) throw new PersonRemovedError();
      personId = known?.id ?? this.newPersonId();
      const events: (NewPersonEvent | NewAuditEvent)[] = known
        ? []
        : [
            {
              type: 'person.added',
              at,
              person: {
                id: personId,
                issuer: identity.issuer,
                subject: identity.subject,
                role: this.roleFor(identity),
              },
            },
          ];
      events.push({
        type: 'person.signed-in',
        at,
        personId,
        profile: identity.profile,
        pairing: codeDigest(pairingCode).toString('hex'),
      });
      const name = personLabel({ ...identity.profile, subject: identity.subject, id: personId });
      return [...events, ...(audit?.({ personId, name }, at) ?? [])];
    });
    const person = registry.projection.people.get(personId);
    if (!person) throw new Error('the sign-in was written but is not in the log');
    return person;
  }

  /** The person whose sign-in minted this pairing code (R21.12), looking at what other replicas wrote if need be. */
  async personForPairingCode(code: string): Promise<PersonRecord | undefined> {
    const { registry } = this.options;
    const digest = codeDigest(code).toString('hex');
    return registry.findCaughtUp(() => registry.projection.personForPairing(digest));
  }

  /**
   * Ties a join code minted from a person's device to that person (R21.15): the machine that joins with it is
   * theirs. Only the code's digest goes into the log.
   */
  async joinCodeMinted(
    personId: string,
    byDeviceId: string | undefined,
    joinCode: string,
    audit?: AuditOf<string>,
  ): Promise<void> {
    const { registry } = this.options;
    await registry.recordPersonEvents(() => {
      const at = this.now().toISOString();
      return [
        {
          type: 'person.join-code-minted',
          at,
          personId,
          ...(byDeviceId !== undefined ? { byDeviceId } : {}),
          joinCode: codeDigest(joinCode).toString('hex'),
        },
        ...(audit?.(personId, at) ?? []),
      ];
    });
  }

  /**
   * The person or group this join code was minted for (R21.15, R21.18), looking at what other replicas wrote if need
   * be; undefined for a plain `askaway invite` code (the owner's machine).
   */
  async ownerForJoinCode(code: string): Promise<JoinCodeOwner | undefined> {
    const { registry } = this.options;
    const digest = codeDigest(code).toString('hex');
    return registry.findCaughtUp((): JoinCodeOwner | undefined => {
      const person = registry.projection.personForJoinCode(digest);
      if (person) return { personId: person.id };
      const group = registry.projection.groupForJoinCode(digest);
      return group && { groupId: group.id };
    });
  }

  /**
   * Removes a person (R21.20): `person.removed` first, decided at the log's head, so from that moment their devices
   * see nothing and their sign-in is refused; then each of their devices and machines is revoked, which drops their
   * connections and withdraws their machines' questions. The owner cannot be removed. `refusal`: who asks may
   * not remove this person (R21.19), asked at the log's head too.
   */
  async revoke(
    personId: string,
    services: { devices: Pick<DeviceService, 'revoke'>; machines: Pick<MachineService, 'revoke'> },
    refusal?: () => TeamRefusal | undefined,
    audit?: { person: AuditOf<string>; device: AuditOf<DeviceInfo>; machine: AuditOf<MachineInfo> },
  ): Promise<PersonRevokeOutcome> {
    const { registry } = this.options;
    let refused: Extract<PersonRevokeOutcome, { ok: false }> | undefined;
    await registry.recordPersonEvents(() => {
      const person = registry.projection.people.get(personId);
      const forbidden = refusal?.();
      refused =
        !person || person.removedAt !== undefined
          ? { ok: false, reason: 'unknown-person' }
          : person.role === 'owner'
            ? { ok: false, reason: 'owner' }
            : forbidden
              ? { ok: false, reason: 'refused', refusal: forbidden }
              : undefined;
      if (refused) return [];
      const at = this.now().toISOString();
      return [{ type: 'person.removed', at, personId }, ...(audit?.person(personId, at) ?? [])];
    });
    if (refused) return refused;
    const fold = registry.projection;
    let devices = 0;
    for (const device of fold.activeDevices())
      if (device.personId === personId && (await services.devices.revoke(device.id, undefined, audit?.device)).ok)
        devices += 1;
    let machines = 0;
    for (const machine of [...fold.machines.values()])
      if (
        machine.personId === personId &&
        machine.revokedAt === undefined &&
        (await services.machines.revoke(machine.id, undefined, audit?.machine)).ok
      )
        machines += 1;
    const person = fold.people.get(personId);
    if (!person) throw new Error('the removal was written but the person is not in the log');
    return { ok: true, person, devices, machines };
  }

  list(): PersonRecord[] {
    return [...this.options.registry.projection.people.values()];
  }

  /** Owner: the one `--oidc-owner` names (by a verified email), else the first to sign in; everyone else a member. */
  private roleFor(identity: SignedInIdentity): PersonRole {
    const people = [...this.options.registry.projection.people.values()];
    if (people.some((person) => person.role === 'owner')) return 'member';
    const { ownerEmail } = this.options;
    if (ownerEmail === undefined) return 'owner';
    const { email, emailVerified } = identity.profile;
    return emailVerified === true && email?.toLowerCase() === ownerEmail.toLowerCase() ? 'owner' : 'member';
  }

  private newPersonId(): string {
    const known = this.options.registry.projection.people;
    let id = randomBytes(8).toString('hex');
    while (known.has(id)) id = randomBytes(8).toString('hex');
    return id;
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}
