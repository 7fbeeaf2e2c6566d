import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type CredentialKind } from '../store/credential-store';

/**
 * `aw_d_<id>_<secret>` (a device) or `aw_m_<id>_<secret>` (a machine): the prefix names the kind,
 * so a credential offered in the wrong place is refused with a message that says what it is
 * (R16.1). The id is public (lists, logs); the secret is 32 random bytes, stored only as its
 * sha256 — a plain hash is enough for a secret no one can guess.
 */
const PREFIX: Record<CredentialKind, string> = { device: 'aw_d_', machine: 'aw_m_' };
const ID_PATTERN = /^[0-9a-f]{16}$/;
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface ParsedCredential {
  kind: CredentialKind;
  id: string;
  secret: string;
}

export function newCredentialId(): string {
  return randomBytes(8).toString('hex');
}

export function mintCredential(kind: CredentialKind, id: string): { credential: string; secretHash: Buffer } {
  const secret = randomBytes(32).toString('base64url');
  return { credential: `${PREFIX[kind]}${id}_${secret}`, secretHash: hashSecret(secret) };
}

/** Null for anything that is not exactly a credential of ours (an agent token, garbage). */
export function parseCredential(text: string): ParsedCredential | null {
  for (const kind of Object.keys(PREFIX) as CredentialKind[]) {
    if (!text.startsWith(PREFIX[kind])) continue;
    const rest = text.slice(PREFIX[kind].length);
    const id = rest.slice(0, 16);
    const secret = rest.slice(17);
    if (rest[16] !== '_' || !ID_PATTERN.test(id) || !SECRET_PATTERN.test(secret)) return null;
    return { kind, id, secret };
  }
  return null;
}

/** Whether the text looks like one of our credentials, for naming it in an error (no check of the secret). */
export function credentialKindOf(text: string): CredentialKind | null {
  return parseCredential(text)?.kind ?? null;
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** Stands in for a missing hash, so an unknown id costs the same compare as a known one. */
const NO_HASH = hashSecret('no such credential');

/** Constant-time: compares sha256 digests of equal length whether or not a hash was stored. */
export function secretMatches(secret: string, stored: Buffer | undefined): boolean {
  const equal = timingSafeEqual(hashSecret(secret), stored?.length === 32 ? stored : NO_HASH);
  return equal && stored !== undefined;
}
