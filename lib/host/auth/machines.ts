import { type MachineInfo, type MachineRecord, type MachineRef } from '../../contracts';
import { type AuditOf } from '../audit/audit-trail';
import { type InteractionRegistry } from '../registry';
import { type CredentialStore } from '../store/credential-store';
import { mintCredential, newCredentialId, parseCredential, secretMatches } from './credential-format';
import { LastSeen } from './last-seen';
import { type AuthResult, type Principal } from './principal';

export interface JoinedMachine {
  machine: MachineRef;
  credential: string;
  hubName: string;
}

export type JoinOutcome = { ok: true; joined: JoinedMachine } | { ok: false; reason: 'name-taken'; message: string };
export type MachineRevokeOutcome = { ok: true; machine: MachineInfo } | { ok: false; reason: 'unknown-machine' };

/** How to join again, in every message a removed machine gets (R17.2). */
export const JOIN_AGAIN_HINT = 'run `askaway invite` on the hub and `askaway join` with the new code on this machine';

/**
 * Machines joined to this hub (R17.1, R17.2, R17.5): what devices are to the remote side,
 * machines are to the runtime side. Who they are comes from the log (joined, revoked events),
 * their secrets' hashes from the credential store, and how many agents each has connected from
 * memory. The hub itself is the first machine (`local`): its agents hold the agent token.
 */
export interface MachineServiceOptions {
  registry: InteractionRegistry;
  credentials: CredentialStore;
  /** The hub's name, as removed machines are told. */
  hubName: string;
  now?: () => Date;
  /** A last-seen time the credential store did not take. Default: stderr. */
  onError?: (error: unknown) => void;
}

/** Whose a machine joining with a code is (R21.15, R21.18): a person's, a group's, or (neither) the owner's. */
export interface JoinCodeOwner {
  personId?: string;
  groupId?: string;
}

export class MachineService {
  /** Runtime connections open now, by machine id (the hub's own `local` included). */
  private readonly connections = new Map<string, number>();
  /** On a team hub: runtime connections open to the other replicas, as they last said (R20.66). */
  private elsewhere: ReadonlyMap<string, number> = new Map();
  private readonly localListeners = new Set<() => void>();
  /** The hub's own last connect or disconnect: it has no credential row to keep it in. */
  private localLastSeen: string | undefined;
  private readonly revokedListeners = new Set<(machineId: string) => void>();
  private readonly changeListeners = new Set<() => void>();

  private constructor(
    private readonly options: MachineServiceOptions,
    private readonly lastSeen: LastSeen,
  ) {}

  /** Reads the machines' last-seen times once; who they are comes from the registry's projection. */
  static async open(options: MachineServiceOptions): Promise<MachineService> {
    const onError = options.onError ?? ((error: unknown) => console.error('[askaway]', error));
    const service = new MachineService(options, await LastSeen.load(options.credentials, 'machine', onError));
    // From the log, not from this process's commands: a machine another hub process joined or revoked changes
    // this one's list, and a revocation drops the machine's connections here too (R20.41).
    options.registry.subscribe((events) => {
      for (const event of events) {
        if (event.type === 'machine.revoked')
          for (const listener of service.revokedListeners) listener(event.machineId);
        if (event.type === 'machine.revoked' || event.type === 'machine.joined') service.changed();
      }
    });
    return service;
  }

  /** The hub's own machine, which its agents (agent token) ask from. */
  get hub(): MachineRef {
    return this.options.registry.localMachine;
  }

  get hubName(): string {
    return this.options.hubName;
  }

  /** Why `name` cannot be a new machine's (the hub's or an active machine's, in any case), else null. */
  nameProblem(name: string): string | null {
    const wanted = name.toLowerCase();
    if (this.hub.name.toLowerCase() === wanted)
      return `"${name}" is the hub's own name: join with --name <another name>.`;
    const taken = this.activeRecords().find((machine) => machine.name.toLowerCase() === wanted);
    if (taken)
      return (
        `A machine named "${taken.name}" is already joined to ${this.hubName}: revoke it first ` +
        `(\`askaway machines revoke "${taken.name}"\` on the hub) or join with --name <another name>.`
      );
    return null;
  }

  /**
   * Mints a credential for a new machine; the caller has redeemed a join code first. `owner`: the person whose
   * device minted the code (R21.15), or the group it was minted for (R21.18), who owns the machine and its
   * questions; absent, the hub owner does.
   */
  async join(name: string, owner: JoinCodeOwner = {}, audit?: AuditOf<MachineRef>): Promise<JoinOutcome> {
    const { personId, groupId } = owner;
    const problem = this.nameProblem(name);
    if (problem !== null) return { ok: false, reason: 'name-taken', message: problem };
    const known = this.options.registry.projection.machines;
    let machineId = newCredentialId();
    while (known.has(machineId)) machineId = newCredentialId();
    const { credential, secretHash } = mintCredential('machine', machineId);
    // The hash first: a crash before the event leaves a hash no listed machine owns, never the reverse.
    await this.options.credentials.add({
      kind: 'machine',
      id: machineId,
      secretHash,
      createdAt: this.now().toISOString(),
    });
    // Decided at the log's head: a machine of the same name joined through another hub process meanwhile wins.
    let taken: string | null = null;
    await this.options.registry.recordMachineEvents(() => {
      taken = this.nameProblem(name);
      if (taken !== null) return [];
      const at = this.now().toISOString();
      return [
        {
          type: 'machine.joined',
          at,
          machine: {
            id: machineId,
            name,
            ...(personId !== undefined ? { personId } : {}),
            ...(groupId !== undefined ? { groupId } : {}),
          },
        },
        ...(audit?.({ id: machineId, name }, at) ?? []),
      ];
    });
    if (taken !== null) return { ok: false, reason: 'name-taken', message: taken };
    return { ok: true, joined: { machine: { id: machineId, name }, credential, hubName: this.hubName } };
  }

  /** A machine credential's check: the secret first, then the log's word on the machine. */
  async authenticate(candidate: string): Promise<AuthResult> {
    const parsed = parseCredential(candidate);
    const stored =
      parsed?.kind === 'machine' ? await this.options.credentials.secretHash('machine', parsed.id) : undefined;
    if (!parsed || parsed.kind !== 'machine' || !secretMatches(parsed.secret, stored)) {
      return {
        ok: false,
        code: 'unauthorized',
        message: `${this.hubName} does not know this machine (a reset data dir, or another hub). Join again: ${JOIN_AGAIN_HINT}.`,
      };
    }
    // Only a credential whose secret matched may cost a catch-up: it was made through another replica.
    const { registry } = this.options;
    const record = await registry.findCaughtUp(() => registry.projection.machines.get(parsed.id));
    if (!record) {
      return {
        ok: false,
        code: 'unauthorized',
        message: `The log of ${this.hubName} has no record of this machine. Join again: ${JOIN_AGAIN_HINT}.`,
      };
    }
    if (record.revokedAt !== undefined) {
      return {
        ok: false,
        code: 'machine-revoked',
        message: `This machine ("${record.name}") was removed from ${this.hubName}. Join again: ${JOIN_AGAIN_HINT}.`,
      };
    }
    return { ok: true, principal: { kind: 'machine', id: record.id, name: record.name } };
  }

  /** The machine an authenticated runtime asks from (R17.3): never anything the runtime sent. */
  refFor(principal: Principal): MachineRef {
    if (principal.kind !== 'machine') return this.hub;
    return {
      id: principal.id,
      name: this.options.registry.projection.machines.get(principal.id)?.name ?? principal.name,
    };
  }

  /** The hub, then every joined machine not revoked, oldest first, with its agents connected now. */
  list(): MachineInfo[] {
    return [this.hubInfo(), ...this.activeRecords().map((record) => this.info(record))];
  }

  get(machineId: string): MachineInfo | undefined {
    const record = this.activeRecord(machineId);
    return record && this.info(record);
  }

  /** Joined machines not revoked. */
  count(): number {
    return this.activeRecords().length;
  }

  /**
   * Revokes at once (R17.2): the event refuses the credential from now on and, as it is folded in, listeners
   * drop the machine's connections; then its pending interactions are withdrawn (no answer could reach it).
   */
  async revoke(machineId: string, byDeviceId?: string, audit?: AuditOf<MachineInfo>): Promise<MachineRevokeOutcome> {
    const machine = this.get(machineId);
    if (!machine) return { ok: false, reason: 'unknown-machine' };
    const stored = await this.options.registry.recordMachineEvents(() => {
      if (!this.activeRecord(machineId)) return [];
      const at = this.now().toISOString();
      return [
        { type: 'machine.revoked', at, machineId, ...(byDeviceId !== undefined ? { byDeviceId } : {}) },
        ...(audit?.(machine, at) ?? []),
      ];
    });
    // Revoked first by another hub process on the same log: for this command, it was no longer joined.
    if (stored.length === 0) return { ok: false, reason: 'unknown-machine' };
    await this.options.registry.withdrawMachine(machineId, `${machine.name} was removed from ${this.hubName}`);
    return { ok: true, machine };
  }

  onRevoked(listener: (machineId: string) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /** A machine joined or was revoked, or its agents came or went: the list changed (R17.5). */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** This process's own runtime connections changed (not another replica's). */
  onLocalChange(listener: () => void): () => void {
    this.localListeners.add(listener);
    return () => this.localListeners.delete(listener);
  }

  /** Runtime connections open to this process now, by machine id. */
  localConnections(): ReadonlyMap<string, number> {
    return new Map(this.connections);
  }

  /**
   * The runtime connections other replicas of a team hub hold, by machine id (R20.66): a phone on any replica sees a
   * machine's agents as connected wherever they are. Listeners hear of it only when it changed.
   */
  setElsewhere(connections: ReadonlyMap<string, number>): void {
    const same =
      connections.size === this.elsewhere.size &&
      [...connections].every(([machineId, count]) => this.elsewhere.get(machineId) === count);
    if (same) return;
    this.elsewhere = new Map(connections);
    this.changed();
  }

  /** A runtime connection of this machine opened. */
  connected(machineId: string): void {
    this.connections.set(machineId, (this.connections.get(machineId) ?? 0) + 1);
    this.seen(machineId);
  }

  disconnected(machineId: string): void {
    const left = (this.connections.get(machineId) ?? 1) - 1;
    if (left > 0) this.connections.set(machineId, left);
    else this.connections.delete(machineId);
    this.seen(machineId);
  }

  private seen(machineId: string): void {
    const at = this.now().toISOString();
    if (machineId === this.hub.id) this.localLastSeen = at;
    else this.lastSeen.touch(machineId, at);
    for (const listener of this.localListeners) listener();
    this.changed();
  }

  /** Agents connected to this process and, on a team hub, to the others. */
  private connectedAgents(machineId: string): number {
    return (this.connections.get(machineId) ?? 0) + (this.elsewhere.get(machineId) ?? 0);
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  private activeRecords(): MachineRecord[] {
    return [...this.options.registry.projection.machines.values()].filter((record) => record.revokedAt === undefined);
  }

  private activeRecord(machineId: string): MachineRecord | undefined {
    const record = this.options.registry.projection.machines.get(machineId);
    return record?.revokedAt === undefined ? record : undefined;
  }

  private hubInfo(): MachineInfo {
    const connectedAgents = this.connectedAgents(this.hub.id);
    const seen = connectedAgents > 0 ? this.now().toISOString() : this.localLastSeen;
    return {
      id: this.hub.id,
      name: this.hub.name,
      kind: 'hub',
      connectedAgents,
      ...(seen !== undefined ? { lastSeenAt: seen } : {}),
    };
  }

  private info(record: MachineRecord): MachineInfo {
    const connectedAgents = this.connectedAgents(record.id);
    const seen = connectedAgents > 0 ? this.now().toISOString() : this.lastSeen.all.get(record.id);
    return {
      id: record.id,
      name: record.name,
      kind: 'joined',
      joinedAt: record.joinedAt,
      connectedAgents,
      ...(seen !== undefined ? { lastSeenAt: seen } : {}),
    };
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}
