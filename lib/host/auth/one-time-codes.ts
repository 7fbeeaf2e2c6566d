import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a code may be exchanged for: a device credential (R16.2); a machine joining (later) shares the mechanism. */
export type CodePurpose = 'pair-device' | 'join-machine';

/** Crockford base32: no I, L, O or U, so a code read aloud or typed survives. 5 bits a character. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 5;
/** Codes outstanding at once, per purpose; minting more drops the oldest. */
const MAX_OUTSTANDING = 32;

export interface MintedCode {
  /** `ABCDE-FGHJK-MNPQR-STVWX`: 100 random bits. */
  code: string;
  expiresAt: Date;
}

interface Outstanding {
  purpose: CodePurpose;
  hash: Buffer;
  expiresAt: number;
}

/**
 * One-time codes in memory (R16.2, R16.3): each works once, until it expires, and not after the
 * host restarts. Only a hash is kept; redeeming compares against every outstanding code in
 * constant time and removes the match in the same synchronous step, so of two concurrent
 * redeems of one code exactly one wins.
 */
export class OneTimeCodes {
  private outstanding: Outstanding[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  mint(purpose: CodePurpose, ttlMs: number): MintedCode {
    this.prune();
    const bytes = randomBytes(GROUPS * GROUP_LENGTH);
    const chars = [...bytes].map((byte) => ALPHABET[byte & 31] ?? '0').join('');
    const expiresAt = this.now() + ttlMs;
    const same = this.outstanding.filter((entry) => entry.purpose === purpose);
    if (same.length >= MAX_OUTSTANDING) {
      const oldest = same[0];
      this.outstanding = this.outstanding.filter((entry) => entry !== oldest);
    }
    this.outstanding.push({ purpose, hash: digest(chars), expiresAt });
    const groups = Array.from({ length: GROUPS }, (_, index) =>
      chars.slice(index * GROUP_LENGTH, (index + 1) * GROUP_LENGTH),
    );
    return { code: groups.join('-'), expiresAt: new Date(expiresAt) };
  }

  /** True once for a live code of this purpose; false for a used, expired, unknown or malformed one. */
  redeem(purpose: CodePurpose, candidate: string): boolean {
    return this.exchange(purpose, candidate, () => ({ spend: true, value: undefined })).redeemed;
  }

  /**
   * Redeems a live code and runs `run` for it, in the same synchronous step. The code is spent only
   * when `run` says so: one that throws (a full disk, R12.6) or declines (a taken name) leaves the
   * code as it was, so the person can try again with it.
   */
  exchange<T>(
    purpose: CodePurpose,
    candidate: string,
    run: () => { spend: boolean; value: T },
  ): { redeemed: false } | { redeemed: true; value: T } {
    this.prune();
    const hash = digest(normalize(candidate));
    let match: Outstanding | undefined;
    // Every outstanding code is compared, whatever matched: the time taken says nothing about the guess.
    for (const entry of this.outstanding) {
      if (timingSafeEqual(entry.hash, hash) && entry.purpose === purpose) match = entry;
    }
    if (!match) return { redeemed: false };
    const before = this.outstanding;
    this.outstanding = before.filter((entry) => entry !== match);
    let outcome: { spend: boolean; value: T };
    try {
      outcome = run();
    } catch (error) {
      this.outstanding = before;
      throw error;
    }
    if (!outcome.spend) this.outstanding = before;
    return { redeemed: true, value: outcome.value };
  }

  /** Codes still usable, for tests and diagnostics. */
  count(purpose: CodePurpose): number {
    this.prune();
    return this.outstanding.filter((entry) => entry.purpose === purpose).length;
  }

  private prune(): void {
    const now = this.now();
    this.outstanding = this.outstanding.filter((entry) => entry.expiresAt > now);
  }
}

/** What a person may type: any case, dashes or spaces anywhere, O for 0 and I or L for 1. */
function normalize(candidate: string): string {
  return candidate
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
