import { describe, expect, it } from 'vitest';
import {
  credentialKindOf,
  hashSecret,
  mintCredential,
  newCredentialId,
  parseCredential,
  secretMatches,
} from './credential-format';

describe('credential format', () => {
  it('[R16.1] a device credential names its kind and id; only the hash of its secret is kept', () => {
    const id = newCredentialId();
    const { credential, secretHash } = mintCredential('device', id);
    expect(credential).toMatch(new RegExp(`^aw_d_${id}_[A-Za-z0-9_-]{43}$`));
    const parsed = parseCredential(credential);
    expect(parsed).toMatchObject({ kind: 'device', id });
    expect(secretHash).toEqual(hashSecret(parsed?.secret ?? ''));
    expect(secretHash.toString('hex')).not.toContain(parsed?.secret ?? '');
    expect(secretMatches(parsed?.secret ?? '', secretHash)).toBe(true);
    expect(secretMatches(`${parsed?.secret ?? ''}x`, secretHash)).toBe(false);
    expect(secretMatches(parsed?.secret ?? '', undefined)).toBe(false);
    expect(credentialKindOf(mintCredential('machine', id).credential)).toBe('machine');
  });

  it('[R16.1] anything else is not a credential: an agent token, a truncated or padded one', () => {
    const { credential } = mintCredential('device', newCredentialId());
    for (const text of [
      '',
      'test-token-0123456789',
      credential.slice(0, -1),
      `${credential}x`,
      credential.replace('aw_d_', 'aw_x_'),
    ])
      expect(parseCredential(text), text).toBeNull();
  });
});
