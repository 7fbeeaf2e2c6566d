/** Whose secret a stored hash is: a paired device (R16.1); machines joining a hub share the table. */
export type CredentialKind = 'device' | 'machine';

export interface NewCredential {
  kind: CredentialKind;
  id: string;
  /** sha256 of the secret; the secret itself is never stored (R16.1). */
  secretHash: Buffer;
  createdAt: string;
}

/**
 * Hashes of credential secrets, kept beside the log and never in it, so no event a remote
 * receives carries one. Whether a credential is still valid is the log's word (paired, not
 * revoked); this only answers "is this the secret". Asynchronous like the log.
 */
export interface CredentialStore {
  add(credential: NewCredential): Promise<void>;
  secretHash(kind: CredentialKind, id: string): Promise<Buffer | undefined>;
  /** When the principal last connected or disconnected: a small write per connection, not an event. */
  setLastSeen(kind: CredentialKind, id: string, at: string): Promise<void>;
  /** Last seen time by id, for every credential of this kind that has one. */
  lastSeen(kind: CredentialKind): Promise<Map<string, string>>;
}

/** For tests and the in-memory log: same contract, nothing on disk. */
export class MemoryCredentialStore implements CredentialStore {
  private readonly entries = new Map<string, NewCredential & { lastSeenAt?: string }>();

  async add(credential: NewCredential): Promise<void> {
    const key = `${credential.kind}:${credential.id}`;
    if (this.entries.has(key)) throw new Error(`A ${credential.kind} credential ${credential.id} exists already`);
    this.entries.set(key, { ...credential, secretHash: Buffer.from(credential.secretHash) });
  }

  async secretHash(kind: CredentialKind, id: string): Promise<Buffer | undefined> {
    return this.entries.get(`${kind}:${id}`)?.secretHash;
  }

  async setLastSeen(kind: CredentialKind, id: string, at: string): Promise<void> {
    const entry = this.entries.get(`${kind}:${id}`);
    if (entry) entry.lastSeenAt = at;
  }

  async lastSeen(kind: CredentialKind): Promise<Map<string, string>> {
    const seen = new Map<string, string>();
    for (const entry of this.entries.values())
      if (entry.kind === kind && entry.lastSeenAt) seen.set(entry.id, entry.lastSeenAt);
    return seen;
  }
}
