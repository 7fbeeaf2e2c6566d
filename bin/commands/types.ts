/** One `askaway <name>` subcommand. `run` resolves with the process exit code. */
export interface CliCommand {
  name: string;
  summary: string;
  run(argv: string[]): Promise<number>;
}

/** A flag problem: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
