import {
  codeDigest,
  MAX_OUTSTANDING_CODES,
  newCode,
  type CodePurpose,
  type MintedCode,
  type OneTimeCodeBook,
} from '../../auth/one-time-codes';
import { type PgDatabase } from './pg-database';

/**
 * A team hub's one-time codes in `askaway_codes` (R20.42): a code minted on one replica works on any, once. A
 * redeem is one conditional UPDATE (`NOT used`, not expired), so of two replicas redeeming one code at the same
 * instant exactly one gets the row. Only the code's hash is stored; a used code's row stays until it expires.
 */
export class PgOneTimeCodes implements OneTimeCodeBook {
  constructor(
    private readonly db: PgDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  async mint(purpose: CodePurpose, ttlMs: number): Promise<MintedCode> {
    const { chars, code } = newCode();
    const expiresAt = new Date(this.now() + ttlMs);
    await this.db.withClient('write a one-time code to', async (client) => {
      await client.query('BEGIN');
      await client.query('DELETE FROM askaway_codes WHERE expires_at <= $1', [new Date(this.now())]);
      // The oldest of this purpose go, leaving room for this one (codes of one purpose share one lifetime).
      await client.query(
        `DELETE FROM askaway_codes WHERE hash IN (
           SELECT hash FROM askaway_codes WHERE purpose = $1 AND NOT used ORDER BY expires_at DESC OFFSET $2
         )`,
        [purpose, MAX_OUTSTANDING_CODES - 1],
      );
      await client.query('INSERT INTO askaway_codes (hash, purpose, expires_at) VALUES ($1, $2, $3)', [
        codeDigest(chars),
        purpose,
        expiresAt,
      ]);
      await client.query('COMMIT');
    });
    return { code, expiresAt };
  }

  async redeem(purpose: CodePurpose, candidate: string): Promise<boolean> {
    return (await this.take(purpose, candidate)) !== undefined;
  }

  async exchange<T>(
    purpose: CodePurpose,
    candidate: string,
    run: () => Promise<{ spend: boolean; value: T }>,
  ): Promise<{ redeemed: false } | { redeemed: true; value: T }> {
    const hash = await this.take(purpose, candidate);
    if (hash === undefined) return { redeemed: false };
    let outcome: { spend: boolean; value: T };
    try {
      outcome = await run();
    } catch (error) {
      await this.giveBack(hash);
      throw error;
    }
    if (!outcome.spend) await this.giveBack(hash);
    return { redeemed: true, value: outcome.value };
  }

  async count(purpose: CodePurpose): Promise<number> {
    const rows = await this.db.query<{ count: string }>(
      'read one-time codes from',
      'SELECT count(*) AS count FROM askaway_codes WHERE purpose = $1 AND NOT used AND expires_at > $2',
      [purpose, new Date(this.now())],
    );
    return Number(rows[0]?.count ?? 0);
  }

  /** Marks the live code used in one statement; its hash when this call was the one that did. */
  private async take(purpose: CodePurpose, candidate: string): Promise<Buffer | undefined> {
    const rows = await this.db.query<{ hash: Buffer }>(
      'redeem a one-time code in',
      `UPDATE askaway_codes SET used = true
         WHERE hash = $1 AND purpose = $2 AND NOT used AND expires_at > $3 RETURNING hash`,
      [codeDigest(candidate), purpose, new Date(this.now())],
    );
    return rows[0]?.hash;
  }

  /**
   * A pairing the log refused (the database away, a taken name) leaves the code usable. Should this fail too,
   * the code stays used: the safe side, and the person mints another.
   */
  private async giveBack(hash: Buffer): Promise<void> {
    await this.db.query('give back a one-time code in', 'UPDATE askaway_codes SET used = false WHERE hash = $1', [
      hash,
    ]);
  }
}
