import {
  createCipheriv,
  createDecipheriv,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';

/**
 * Sealed boxes for a secret answer on its way between replicas (R20.47): X25519 with a fresh key per box, HKDF-SHA256
 * and AES-256-GCM. Only the holder of the recipient's private key opens one, and a replica's private key lives in
 * its memory only, so a box in the database is no plaintext at rest (R12.13) and is unreadable once that process
 * is gone. `context` (the interaction's id) is bound in, so a box cannot be moved to another question.
 */

const INFO = Buffer.from('askaway sealed answer v1');
/** An X25519 public key in SPKI DER: a fixed 12-byte header, then the 32-byte key. */
const SPKI_LENGTH = 44;
const NONCE_LENGTH = 12;
const TAG_LENGTH = 16;

export interface BoxKeys {
  /** The public key in SPKI DER, as others seal to it. */
  publicKey: Buffer;
  privateKey: KeyObject;
}

export function newBoxKeys(): BoxKeys {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  return { publicKey: publicKey.export({ type: 'spki', format: 'der' }), privateKey };
}

export function seal(plaintext: string, recipientPublicKey: Buffer, context: string): Buffer {
  const recipient = createPublicKey({ key: recipientPublicKey, format: 'der', type: 'spki' });
  const ephemeral = generateKeyPairSync('x25519');
  const ephemeralPublic = ephemeral.publicKey.export({ type: 'spki', format: 'der' });
  const key = boxKey(
    diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipient }),
    ephemeralPublic,
    recipientPublicKey,
  );
  const nonce = randomBytes(NONCE_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([ephemeralPublic, nonce, cipher.getAuthTag(), body]);
}

/** The plaintext, or undefined for a box not sealed to these keys, for another context, or altered. */
export function open(box: Buffer, keys: BoxKeys, context: string): string | undefined {
  if (box.length < SPKI_LENGTH + NONCE_LENGTH + TAG_LENGTH) return undefined;
  try {
    const ephemeralPublic = box.subarray(0, SPKI_LENGTH);
    const nonce = box.subarray(SPKI_LENGTH, SPKI_LENGTH + NONCE_LENGTH);
    const tag = box.subarray(SPKI_LENGTH + NONCE_LENGTH, SPKI_LENGTH + NONCE_LENGTH + TAG_LENGTH);
    const sender = createPublicKey({ key: ephemeralPublic, format: 'der', type: 'spki' });
    const key = boxKey(
      diffieHellman({ privateKey: keys.privateKey, publicKey: sender }),
      ephemeralPublic,
      keys.publicKey,
    );
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(tag);
    const body = box.subarray(SPKI_LENGTH + NONCE_LENGTH + TAG_LENGTH);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

function boxKey(shared: Buffer, ephemeralPublic: Buffer, recipientPublic: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', shared, Buffer.concat([ephemeralPublic, recipientPublic]), INFO, 32));
}
