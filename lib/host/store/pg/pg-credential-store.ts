import { type CredentialKind, type CredentialStore, type NewCredential } from '../credential-store';
import { errorCode } from './pg-errors';
import { type PgDatabase } from './pg-database';

/** The `askaway_credentials` table beside the log (R16.1): hashes only, shared by every replica. */
export class PgCredentialStore implements CredentialStore {
  constructor(private readonly db: PgDatabase) {}

  async add(credential: NewCredential): Promise<void> {
    try {
      await this.db.query(
        'write a credential to',
        'INSERT INTO askaway_credentials (kind, id, secret_hash, created_at) VALUES ($1, $2, $3, $4)',
        [credential.kind, credential.id, credential.secretHash, credential.createdAt],
      );
    } catch (error) {
      if (errorCode(error instanceof Error ? error.cause : undefined) === '23505') {
        throw new Error(`A ${credential.kind} credential ${credential.id} exists already`, { cause: error });
      }
      throw error;
    }
  }

  async secretHash(kind: CredentialKind, id: string): Promise<Buffer | undefined> {
    const rows = await this.db.query<{ secret_hash: Buffer }>(
      'read a credential from',
      'SELECT secret_hash FROM askaway_credentials WHERE kind = $1 AND id = $2',
      [kind, id],
    );
    return rows[0]?.secret_hash;
  }

  async setLastSeen(kind: CredentialKind, id: string, at: string): Promise<void> {
    await this.db.query(
      'write a credential to',
      'UPDATE askaway_credentials SET last_seen_at = $1 WHERE kind = $2 AND id = $3',
      [at, kind, id],
    );
  }

  async lastSeen(kind: CredentialKind): Promise<Map<string, string>> {
    const rows = await this.db.query<{ id: string; last_seen_at: string }>(
      'read credentials from',
      'SELECT id, last_seen_at FROM askaway_credentials WHERE kind = $1 AND last_seen_at IS NOT NULL ORDER BY id',
      [kind],
    );
    return new Map(rows.map((row) => [row.id, row.last_seen_at]));
  }
}
