import { type CredentialKind, type CredentialStore } from '../store/credential-store';

/**
 * When each device or machine last connected or disconnected: read from the credential store once at
 * open, then kept here and written through, so a list (and every snapshot's machine list) never waits on
 * the store. A write that fails is reported and the time kept in memory: it is a convenience of lists.
 */
export class LastSeen {
  private constructor(
    private readonly credentials: CredentialStore,
    private readonly kind: CredentialKind,
    private readonly seen: Map<string, string>,
    private readonly onError: (error: unknown) => void,
  ) {}

  static async load(
    credentials: CredentialStore,
    kind: CredentialKind,
    onError: (error: unknown) => void,
  ): Promise<LastSeen> {
    return new LastSeen(credentials, kind, await credentials.lastSeen(kind), onError);
  }

  get all(): ReadonlyMap<string, string> {
    return this.seen;
  }

  touch(id: string, at: string): void {
    this.seen.set(id, at);
    this.credentials.setLastSeen(this.kind, id, at).catch(this.onError);
  }
}
