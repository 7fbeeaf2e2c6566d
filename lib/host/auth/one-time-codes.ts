import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a code may be exchanged for: a device credential (R16.2); a machine joining (later) shares the mechanism. */
export type CodePurpose = 'pair-device' | 'join-machine';

/** Crockford base32: no I, L, O or U, so a code read aloud or typed survives. 5 bits a character. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 5;
/** Codes outstanding at once, per purpose; minting more drops the oldest. */
export const MAX_OUTSTANDING_CODES = 32;

export interface MintedCode {
  /** `ABCDE-FGHJK-MNPQR-STVWX`: 100 random bits. */
  code: string;
  expiresAt: Date;
}

/**
 * Where a hub keeps its one-time codes (R16.2, R16.3): in its memory, or in the team database so that a code
 * minted on one replica works on any (R20.42). Only a hash of each code is kept.
 */
export interface OneTimeCodeBook {
  mint(purpose: CodePurpose, ttlMs: number): Promise<MintedCode>;
  /** True once for a live code of this purpose; false for a used, expired, unknown or malformed one. */
  redeem(purpose: CodePurpose, candidate: string): Promise<boolean>;
  /**
   * Redeems a live code and runs `run` for it: of two concurrent exchanges of one code exactly one runs. The code is
   * spent only when `run` says so: one that throws (a full disk, R12.6) or declines (a taken name) gives the code
   * back, so the person can try again with it.
   */
  exchange<T>(
    purpose: CodePurpose,
    candidate: string,
    run: () => Promise<{ spend: boolean; value: T }>,
  ): Promise<{ redeemed: false } | { redeemed: true; value: T }>;
  /** Codes still usable, for tests and diagnostics. */
  count(purpose: CodePurpose): Promise<number>;
}

/** A fresh code's characters (no dashes) and the form shown to people. */
export function newCode(): { chars: string; code: string } {
  const bytes = randomBytes(GROUPS * GROUP_LENGTH);
  const chars = [...bytes].map((byte) => ALPHABET[byte & 31] ?? '0').join('');
  const groups = Array.from({ length: GROUPS }, (_, index) =>
    chars.slice(index * GROUP_LENGTH, (index + 1) * GROUP_LENGTH),
  );
  return { chars, code: groups.join('-') };
}

/** The hash a code is kept and looked up by, of what a person typed read as a code. */
export function codeDigest(candidate: string): Buffer {
  return digest(normalize(candidate));
}

interface Outstanding {
  purpose: CodePurpose;
  hash: Buffer;
  expiresAt: number;
}

/**
 * One-time codes in memory, a personal hub's (R16.2, R16.3): each works once, until it expires, and not after the
 * host restarts. Only a hash is kept; redeeming compares against every outstanding code in
 * constant time and removes the match in the same synchronous step, so of two concurrent
 * redeems of one code exactly one wins.
 */
export class OneTimeCodes implements OneTimeCodeBook {
  private outstanding: Outstanding[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  mint(purpose: CodePurpose, ttlMs: number): Promise<MintedCode> {
    this.prune();
    const { chars, code } = newCode();
    const expiresAt = this.now() + ttlMs;
    const same = this.outstanding.filter((entry) => entry.purpose === purpose);
    if (same.length >= MAX_OUTSTANDING_CODES) {
      const oldest = same[0];
      this.outstanding = this.outstanding.filter((entry) => entry !== oldest);
    }
    this.outstanding.push({ purpose, hash: digest(chars), expiresAt });
    return Promise.resolve({ code, expiresAt: new Date(expiresAt) });
  }

  redeem(purpose: CodePurpose, candidate: string): Promise<boolean> {
    return Promise.resolve(this.take(purpose, candidate) !== undefined);
  }

  /** The code is taken in the same synchronous step as the check, so of two concurrent exchanges exactly one runs. */
  async exchange<T>(
    purpose: CodePurpose,
    candidate: string,
    run: () => Promise<{ spend: boolean; value: T }>,
  ): Promise<{ redeemed: false } | { redeemed: true; value: T }> {
    const match = this.take(purpose, candidate);
    if (!match) return { redeemed: false };
    let outcome: { spend: boolean; value: T };
    try {
      outcome = await run();
    } catch (error) {
      this.outstanding.push(match);
      throw error;
    }
    if (!outcome.spend) this.outstanding.push(match);
    return { redeemed: true, value: outcome.value };
  }

  /** Removes and returns the live code of this purpose that `candidate` is, comparing against each in constant time. */
  private take(purpose: CodePurpose, candidate: string): Outstanding | undefined {
    this.prune();
    const hash = codeDigest(candidate);
    let match: Outstanding | undefined;
    for (const entry of this.outstanding) {
      if (timingSafeEqual(entry.hash, hash) && entry.purpose === purpose) match = entry;
    }
    if (match) this.outstanding = this.outstanding.filter((entry) => entry !== match);
    return match;
  }

  count(purpose: CodePurpose): Promise<number> {
    this.prune();
    return Promise.resolve(this.outstanding.filter((entry) => entry.purpose === purpose).length);
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
