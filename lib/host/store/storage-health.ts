import { errorMessage } from '../../contracts';

/** SQLite's and the OS's ways of saying a write cannot land on the disk. */
const STORAGE_CODES = /^(SQLITE_FULL|SQLITE_IOERR|SQLITE_READONLY|SQLITE_CANTOPEN|ENOSPC|EDQUOT|EROFS|EIO)/;

/** True for an error that says the disk refused a write (full, read-only, failing), not a bug. */
export function isStorageFailure(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
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

/**
 * Whether the host's disk takes writes. A refused write becomes a StorageUnavailableError with a
 * message for the caller, and the host's log says so once; the first write that passes again says
 * that once too. Reads never go through here, so snapshots keep being served from memory and disk.
 */
export class StorageHealth {
  private failing = false;

  constructor(private readonly options: { dataDir: string; log: (line: string) => void }) {}

  /** True while the last write was refused. */
  get unavailable(): boolean {
    return this.failing;
  }

  /** Runs one write (`what`: "the event log", …); a refusal by the disk is turned into StorageUnavailableError. */
  async write<T>(what: string, run: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await run();
    } catch (error) {
      if (!isStorageFailure(error)) throw error;
      if (!this.failing) {
        this.failing = true;
        this.options.log(
          `askaway: cannot write ${what} in ${this.options.dataDir} (${errorMessage(error)}). Until the disk takes ` +
            'writes again, new questions, answers and pairings are refused with this reason; reads and the ' +
            'questions already waiting keep working. Free some space: Askaway resumes by itself.',
        );
      }
      throw new StorageUnavailableError(
        `The host cannot save anything right now: the disk under its data dir refused the write ` +
          `(${errorMessage(error)}). Nothing changed; try again once there is space.`,
        { cause: error },
      );
    }
    if (this.failing) {
      this.failing = false;
      this.options.log(`askaway: writing ${what} works again; new questions, answers and pairings are taken.`);
    }
    return result;
  }
}
