import type Database from 'better-sqlite3';
import { type CredentialKind, type CredentialStore, type NewCredential } from './credential-store';

/** A stored credential's hash with when it was last seen, as `askaway migrate` copies it. */
export interface StoredCredential extends NewCredential {
  lastSeenAt?: string;
}

interface CredentialRow {
  kind: string;
  id: string;
  secret_hash: Buffer;
  created_at: string;
  last_seen_at: string | null;
}

/** The `credentials` table of the log's own database (schema 2), on the log's connection; each call works at once. */
export class SqliteCredentialStore implements CredentialStore {
  private readonly insert: Database.Statement<[string, string, Buffer, string]>;
  private readonly selectHash: Database.Statement<[string, string], { secret_hash: Buffer }>;
  private readonly updateSeen: Database.Statement<[string, string, string]>;
  private readonly selectSeen: Database.Statement<[string], { id: string; last_seen_at: string }>;
  private readonly selectAll: Database.Statement<[], CredentialRow>;

  constructor(db: Database.Database) {
    this.insert = db.prepare('INSERT INTO credentials (kind, id, secret_hash, created_at) VALUES (?, ?, ?, ?)');
    this.selectHash = db.prepare('SELECT secret_hash FROM credentials WHERE kind = ? AND id = ?');
    this.updateSeen = db.prepare('UPDATE credentials SET last_seen_at = ? WHERE kind = ? AND id = ?');
    this.selectSeen = db.prepare(
      'SELECT id, last_seen_at FROM credentials WHERE kind = ? AND last_seen_at IS NOT NULL ORDER BY id',
    );
    this.selectAll = db.prepare(
      'SELECT kind, id, secret_hash, created_at, last_seen_at FROM credentials ORDER BY kind, id',
    );
  }

  async add(credential: NewCredential): Promise<void> {
    this.insert.run(credential.kind, credential.id, credential.secretHash, credential.createdAt);
  }

  async secretHash(kind: CredentialKind, id: string): Promise<Buffer | undefined> {
    return this.selectHash.get(kind, id)?.secret_hash;
  }

  async setLastSeen(kind: CredentialKind, id: string, at: string): Promise<void> {
    this.updateSeen.run(at, kind, id);
  }

  async lastSeen(kind: CredentialKind): Promise<Map<string, string>> {
    return new Map(this.selectSeen.all(kind).map((row) => [row.id, row.last_seen_at]));
  }

  /**
   * Every credential, for moving a personal hub into a team database (R20.31). Only this store has it: a
   * running hub never needs a list of hashes, so the CredentialStore contract does not offer one.
   */
  async all(): Promise<StoredCredential[]> {
    return this.selectAll.all().map((row) => {
      if (row.kind !== 'device' && row.kind !== 'machine') {
        throw new Error(`The credentials table holds a credential of an unknown kind "${row.kind}" (id ${row.id})`);
      }
      return {
        kind: row.kind,
        id: row.id,
        secretHash: row.secret_hash,
        createdAt: row.created_at,
        ...(row.last_seen_at === null ? {} : { lastSeenAt: row.last_seen_at }),
      };
    });
  }
}
