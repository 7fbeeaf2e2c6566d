import { type CredentialKind, type CredentialStore, type NewCredential } from './credential-store';

/**
 * The credential store with every hash it has read or added kept in memory. A credential's hash never changes
 * (whether it is still valid is the log's word: paired, revoked), so a remembered one is never stale, and a phone
 * or machine seen before still connects while a team hub's database is unreachable (R20.19); a hash not found is
 * asked again each time, since another hub process may have added it since.
 */
export function rememberingCredentials(store: CredentialStore): CredentialStore {
  const known = new Map<string, Buffer>();
  const key = (kind: CredentialKind, id: string) => `${kind}:${id}`;
  return {
    add: async (credential: NewCredential) => {
      await store.add(credential);
      known.set(key(credential.kind, credential.id), Buffer.from(credential.secretHash));
    },
    secretHash: async (kind: CredentialKind, id: string) => {
      const remembered = known.get(key(kind, id));
      if (remembered) return remembered;
      const hash = await store.secretHash(kind, id);
      if (hash) known.set(key(kind, id), hash);
      return hash;
    },
    setLastSeen: (kind: CredentialKind, id: string, at: string) => store.setLastSeen(kind, id, at),
    lastSeen: (kind: CredentialKind) => store.lastSeen(kind),
  };
}
