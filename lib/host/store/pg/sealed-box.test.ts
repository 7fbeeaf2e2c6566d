import { describe, expect, it } from 'vitest';
import { newBoxKeys, open, seal } from './sealed-box';

describe('[R20.47] sealed boxes carry a secret answer between replicas', () => {
  it('[R20.47] only the recipient opens a box, for its own question, unaltered; the box holds no plaintext', () => {
    const keys = newBoxKeys();
    const secret = '{"answers":{"API key?":"sk-live-4242"}}';
    const box = seal(secret, keys.publicKey, 'local:req-1');
    expect(box.includes(Buffer.from('sk-live-4242'))).toBe(false);
    expect(open(box, keys, 'local:req-1')).toBe(secret);
    // Two boxes of one answer differ (a fresh key and nonce each).
    expect(seal(secret, keys.publicKey, 'local:req-1').equals(box)).toBe(false);

    expect(open(box, newBoxKeys(), 'local:req-1')).toBeUndefined();
    expect(open(box, keys, 'local:req-2')).toBeUndefined();
    const altered = Buffer.from(box);
    altered[altered.length - 1] = (altered.at(-1) ?? 0) ^ 1;
    expect(open(altered, keys, 'local:req-1')).toBeUndefined();
    expect(open(box.subarray(0, 20), keys, 'local:req-1')).toBeUndefined();
  });
});
