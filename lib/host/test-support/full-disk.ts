import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type HostEvent, type NewHostEvent } from '../../contracts';
import { type CredentialKind, type CredentialStore, type NewCredential } from '../store/credential-store';
import { type AppendOptions, type EventStore } from '../store/event-store';
import { SqliteEventStore } from '../store/sqlite-event-store';
import { tempDir } from './test-host';

/** What better-sqlite3 throws when the disk is full. */
function sqliteFull(): Error {
  return Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
}

/**
 * A real SQLite log whose disk can be made full: while `full`, every write throws SQLITE_FULL before it
 * reaches SQLite, exactly as a full filesystem makes it throw (reads keep working). For machines where a
 * real small filesystem cannot be mounted; `mountTinyTmpfs` is the real thing.
 */
export class FullDiskStore implements EventStore {
  full = false;
  readonly credentials: CredentialStore;
  private readonly store: SqliteEventStore;

  constructor(file = path.join(tempDir('askaway-full-'), 'askaway.db')) {
    this.store = new SqliteEventStore(file);
    const inner = this.store.credentials;
    this.credentials = {
      add: (credential: NewCredential) => this.write(() => inner.add(credential)),
      secretHash: (kind: CredentialKind, id: string) => inner.secretHash(kind, id),
      setLastSeen: (kind: CredentialKind, id: string, at: string) => this.write(() => inner.setLastSeen(kind, id, at)),
      lastSeen: (kind: CredentialKind) => inner.lastSeen(kind),
    };
  }

  get logId(): string {
    return this.store.logId;
  }

  append(events: readonly NewHostEvent[], options?: AppendOptions): Promise<HostEvent[]> {
    return this.write(() => this.store.append(events, options));
  }

  readSince(afterSeq: number, limit: number): Promise<HostEvent[]> {
    return this.store.readSince(afterSeq, limit);
  }

  readSeqs(seqs: readonly number[]): Promise<HostEvent[]> {
    return this.store.readSeqs(seqs);
  }

  lastSeq(): Promise<number> {
    return this.store.lastSeq();
  }

  watch(listener: (lastSeq: number) => void): () => void {
    return this.store.watch(listener);
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private async write<T>(run: () => Promise<T>): Promise<T> {
    if (this.full) throw sqliteFull();
    return run();
  }
}

/** A real filesystem of `bytes` (tmpfs), or undefined where this process may not mount one. */
export function mountTinyTmpfs(
  bytes: number,
): { dir: string; fill(): void; free(): void; unmount(): void } | undefined {
  const dir = tempDir('askaway-tmpfs-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const filler = path.join(dir, 'filler');
  return {
    dir,
    /** Writes a file until the filesystem has no byte left. */
    fill() {
      const chunk = Buffer.alloc(64 * 1024);
      const fd = fs.openSync(filler, 'a');
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        // The last partial chunk: fill the remaining bytes one at a time.
        try {
          for (;;) fs.writeSync(fd, Buffer.alloc(1));
        } catch {
          // Full to the last byte.
        }
      } finally {
        fs.closeSync(fd);
      }
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
