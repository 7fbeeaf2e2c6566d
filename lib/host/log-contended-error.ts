/**
 * A command decided again and again, and each time another writer (a second hub replica) had appended
 * to the log first. Nothing of this command was written; its caller may try again.
 */
export class LogContendedError extends Error {
  constructor(
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(
      `The event log kept moving: another hub writing to the same log appended first ${attempts} times in a row. ` +
        'Nothing of this request was saved; try again.',
      options,
    );
    this.name = 'LogContendedError';
  }
}
