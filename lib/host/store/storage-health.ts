import { errorMessage } from '../../contracts';

/** SQLite's and the OS's ways of saying a write cannot land on the disk. */
const STORAGE_CODES = /^(SQLITE_FULL|SQLITE_IOERR|SQLITE_READONLY|SQLITE_CANTOPEN|ENOSPC|EDQUOT|EROFS|EIO)/;

/**
 * True for an error that says the storage refused a write, not a bug: the disk (full, read-only, failing), or a
 * database log that cannot be reached or takes no writes (an error marked `storageUnavailable`).
 */
export function isStorageFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ('storageUnavailable' in error && error.storageUnavailable === true) return true;
  const code = 'code' in error ? error.code : undefined;
  return typeof code === 'string' && STORAGE_CODES.test(code);
}

/**
 * A write the host could not make because its disk refused it. Nothing changed: the caller is told,
 * keeps what it sent (an agent re-announces, a phone keeps its answer in its outbox) and tries again.
 */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
}

/** Where the host keeps its log: words for the messages a refused write gives. */
export type StorageLocation = { dataDir: string } | { database: string };

/**
 * Whether the host's storage takes writes: the disk under its data dir, or a team hub's database. A refused
 * write becomes a StorageUnavailableError with a message for the caller, and the host's log says so once; the
 * first write that passes again says that once too. Reads never go through here, so snapshots keep being served
 * from memory.
 */
export class StorageHealth {
  private failing = false;

  constructor(private readonly options: StorageLocation & { log: (line: string) => void }) {}

  /** True while the last write was refused. */
  get unavailable(): boolean {
    return this.failing;
  }

  /** Runs one write (`what`: "the event log", …); a refusal by the storage is turned into StorageUnavailableError. */
  async write<T>(what: string, run: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await run();
    } catch (error) {
      if (!isStorageFailure(error)) throw error;
      if (!this.failing) {
        this.failing = true;
        this.options.log(this.failingLine(what, errorMessage(error)));
      }
      throw new StorageUnavailableError(this.refusal(errorMessage(error)), { cause: error });
    }
    if (this.failing) {
      this.failing = false;
      this.options.log(`askaway: writing ${what} works again; new questions, answers and pairings are taken.`);
    }
    return result;
  }

  private failingLine(what: string, reason: string): string {
    const meanwhile =
      'new questions, answers and pairings are refused with this reason; reads and the questions already waiting ' +
      'keep working.';
    if ('database' in this.options)
      return (
        `askaway: cannot write ${what} (${reason}). Until its database takes writes again, ${meanwhile} ` +
        'Askaway resumes by itself once the database is back.'
      );
    return (
      `askaway: cannot write ${what} in ${this.options.dataDir} (${reason}). Until the disk takes writes again, ` +
      `${meanwhile} Free some space: Askaway resumes by itself.`
    );
  }

  private refusal(reason: string): string {
    // The database's address and the driver's words are for the host's log (failingLine), not for every phone.
    if ('database' in this.options)
      return 'The host cannot save anything right now: its database cannot be reached or takes no writes. Nothing changed; try again once it is back.';
    return (
      `The host cannot save anything right now: the disk under its data dir refused the write (${reason}). ` +
      'Nothing changed; try again once there is space.'
    );
  }
}
