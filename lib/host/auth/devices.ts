import { type DeviceInfo, type DeviceRecord, type NewDeviceEvent, type PairReplaces } from '../../contracts';
import { type AuditOf } from '../audit/audit-trail';
import { personRef } from '../people/person-ref';
import { type InteractionRegistry } from '../registry';
import { type CredentialStore } from '../store/credential-store';
import { mintCredential, newCredentialId, parseCredential, secretMatches } from './credential-format';
import { LastSeen } from './last-seen';
import { type AuthResult } from './principal';

export interface PairedDevice {
  deviceId: string;
  credential: string;
  hostName: string;
}

export type RevokeOutcome = { ok: true; device: DeviceInfo } | { ok: false; reason: 'unknown-device' };

/** How to pair again, in every message a removed device gets (R16.5). */
export const PAIR_AGAIN_HINT = 'run `askaway pair` on that computer and open the link it prints';

/**
 * Paired devices (R16.1, R16.4, R16.5): who they are comes from the log (paired, renamed,
 * revoked events, folded like every other event), their secrets' hashes from the credential
 * store, and whether they are connected from memory. A device is let in only while the log
 * says it is paired and not revoked, so a crash between the two writes can never leave a
 * working credential that no list shows.
 */
export interface DeviceServiceOptions {
  registry: InteractionRegistry;
  credentials: CredentialStore;
  hostName: string;
  now?: () => Date;
  /** A last-seen time the credential store did not take. Default: stderr. */
  onError?: (error: unknown) => void;
}

export class DeviceService {
  private readonly connections = new Map<string, number>();
  private readonly revokedListeners = new Set<(deviceId: string) => void>();

  private constructor(
    private readonly options: DeviceServiceOptions,
    private readonly lastSeen: LastSeen,
  ) {}

  /** Reads the devices' last-seen times once; who they are comes from the registry's projection. */
  static async open(options: DeviceServiceOptions): Promise<DeviceService> {
    const onError = options.onError ?? ((error: unknown) => console.error('[askaway]', error));
    const service = new DeviceService(options, await LastSeen.load(options.credentials, 'device', onError));
    // From the log, not from this process's commands: a revocation another hub process committed drops this
    // one's connections and push subscriptions too (R20.41).
    options.registry.subscribe((events) => {
      for (const event of events)
        if (event.type === 'device.revoked') for (const listener of service.revokedListeners) listener(event.deviceId);
    });
    return service;
  }

  get hostName(): string {
    return this.options.hostName;
  }

  /**
   * Mints a credential for a new device; the caller has redeemed a pairing code first. Pairing
   * again (R16.9): when `replaces` holds a credential this host still honours, the new device
   * takes its place in the same commit — its name unless the person typed another, and the old
   * one revoked as from Settings. A credential that no longer works changes nothing here.
   */
  async pair(
    device: {
      name: string;
      platform: string;
      replaces?: PairReplaces;
      /** The person who signed in to pair it, on a team hub (R21.12). */
      personId?: string;
    },
    /** A team hub's record of the pairing, in its commit (R21.60). */
    audit?: AuditOf<{ deviceId: string; name: string; personId?: string }>,
  ): Promise<PairedDevice> {
    const previous = device.replaces && (await this.authenticate(device.replaces.credential));
    const replaced = previous?.ok ? previous.principal : undefined;
    const name = replaced && device.replaces?.keepName ? replaced.name : device.name;
    const known = this.options.registry.projection.devices;
    let deviceId = newCredentialId();
    while (known.has(deviceId)) deviceId = newCredentialId();
    const { credential, secretHash } = mintCredential('device', deviceId);
    // The hash first: a crash before the event leaves a hash no listed device owns, never the reverse.
    await this.options.credentials.add({
      kind: 'device',
      id: deviceId,
      secretHash,
      createdAt: this.now().toISOString(),
    });
    await this.options.registry.recordDeviceEvents(() => {
      const at = this.now().toISOString();
      const events: NewDeviceEvent[] = [
        {
          type: 'device.paired',
          at,
          device: {
            id: deviceId,
            name,
            platform: device.platform,
            ...(device.personId !== undefined ? { personId: device.personId } : {}),
          },
        },
      ];
      // Removed meanwhile (from another hub process on the same log): nothing left to take the place of.
      if (replaced && this.activeRecord(replaced.id))
        events.push({ type: 'device.revoked', at, deviceId: replaced.id, byDeviceId: deviceId });
      return [
        ...events,
        ...(audit?.({ deviceId, name, ...(device.personId !== undefined ? { personId: device.personId } : {}) }, at) ??
          []),
      ];
    });
    return { deviceId, credential, hostName: this.options.hostName };
  }

  /** A device credential's check: the secret first, then the log's word on the device. */
  async authenticate(candidate: string): Promise<AuthResult> {
    const parsed = parseCredential(candidate);
    const stored =
      parsed?.kind === 'device' ? await this.options.credentials.secretHash('device', parsed.id) : undefined;
    if (!parsed || parsed.kind !== 'device' || !secretMatches(parsed.secret, stored)) {
      return {
        ok: false,
        code: 'unauthorized',
        message: `This host does not know this device (a reset data dir, or another host). Pair again: ${PAIR_AGAIN_HINT}.`,
      };
    }
    // Only a credential whose secret matched may cost a catch-up: it was made through another replica.
    const { registry } = this.options;
    const record = await registry.findCaughtUp(() => registry.projection.devices.get(parsed.id));
    if (!record) {
      return {
        ok: false,
        code: 'unauthorized',
        message: `This host's log has no record of this device. Pair again: ${PAIR_AGAIN_HINT}.`,
      };
    }
    if (record.revokedAt !== undefined) {
      return {
        ok: false,
        code: 'device-revoked',
        message: `This device was removed from ${this.options.hostName}. Pair again: ${PAIR_AGAIN_HINT}.`,
      };
    }
    return { ok: true, principal: { kind: 'device', id: record.id, name: record.name } };
  }

  /** Every paired device, oldest first, with whether it is connected and when it was last seen. */
  list(): DeviceInfo[] {
    return this.options.registry.projection.activeDevices().map((record) => this.info(record));
  }

  get(deviceId: string): DeviceInfo | undefined {
    const record = this.activeRecord(deviceId);
    return record && this.info(record);
  }

  /** From the log alone: cheap enough for every answer a device gives. */
  isActive(deviceId: string): boolean {
    return this.activeRecord(deviceId) !== undefined;
  }

  /** The device's name as the log has it now (a rename shows on later answers). */
  nameOf(deviceId: string): string | undefined {
    return this.activeRecord(deviceId)?.name;
  }

  /**
   * Revokes at once (R16.5): the event refuses the credential from now on, and as it is folded in listeners drop
   * the device's live connections and delete its push subscriptions.
   */
  async revoke(deviceId: string, byDeviceId?: string, audit?: AuditOf<DeviceInfo>): Promise<RevokeOutcome> {
    const device = this.get(deviceId);
    if (!device) return { ok: false, reason: 'unknown-device' };
    const stored = await this.options.registry.recordDeviceEvents(() => {
      if (!this.activeRecord(deviceId)) return [];
      const at = this.now().toISOString();
      return [
        { type: 'device.revoked', at, deviceId, ...(byDeviceId !== undefined ? { byDeviceId } : {}) },
        ...(audit?.(device, at) ?? []),
      ];
    });
    // Revoked first by another hub process on the same log: for this command, it was no longer paired.
    if (stored.length === 0) return { ok: false, reason: 'unknown-device' };
    return { ok: true, device };
  }

  /** False when the device is not paired (any more); a rename to its own name writes nothing. */
  async rename(deviceId: string, name: string): Promise<boolean> {
    let paired = false;
    await this.options.registry.recordDeviceEvents(() => {
      const device = this.activeRecord(deviceId);
      paired = device !== undefined;
      return device && device.name !== name
        ? [{ type: 'device.renamed', at: this.now().toISOString(), deviceId, name }]
        : [];
    });
    return paired;
  }

  onRevoked(listener: (deviceId: string) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /** A connection of this device opened: it is online, and last seen now. */
  connected(deviceId: string): void {
    this.connections.set(deviceId, (this.connections.get(deviceId) ?? 0) + 1);
    this.lastSeen.touch(deviceId, this.now().toISOString());
  }

  disconnected(deviceId: string): void {
    const left = (this.connections.get(deviceId) ?? 1) - 1;
    if (left > 0) this.connections.set(deviceId, left);
    else this.connections.delete(deviceId);
    this.lastSeen.touch(deviceId, this.now().toISOString());
  }

  private activeRecord(deviceId: string): DeviceRecord | undefined {
    const record = this.options.registry.projection.devices.get(deviceId);
    return record?.revokedAt === undefined ? record : undefined;
  }

  private info(record: DeviceRecord): DeviceInfo {
    const online = (this.connections.get(record.id) ?? 0) > 0;
    const seen = online ? this.now().toISOString() : this.lastSeen.all.get(record.id);
    const person =
      record.personId === undefined ? undefined : this.options.registry.projection.people.get(record.personId);
    return {
      id: record.id,
      name: record.name,
      platform: record.platform,
      pairedAt: record.pairedAt,
      online,
      ...(seen !== undefined ? { lastSeenAt: seen } : {}),
      ...(person ? { person: personRef(person) } : {}),
    };
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}
