import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorMessage } from '../../lib/contracts';

type FlagOptions = NonNullable<ParseArgsConfig['options']>;
const HELP = { help: { type: 'boolean', short: 'h' } } as const;

type Parsed<Options extends FlagOptions> = ReturnType<
  typeof parseArgs<{ args: string[]; options: Options & typeof HELP; strict: true; allowPositionals: boolean }>
>;

/**
 * A command's flags and positionals, strictly: an unknown or malformed flag prints what is wrong with
 * the usage (exit code 2), and so does a positional argument unless `allowPositionals`; `--help`
 * prints the usage (exit code 0). Either way the command returns `exit`.
 */
export function parseFlags<const Options extends FlagOptions>(
  command: string,
  usage: string,
  argv: string[],
  options: Options,
  allowPositionals = false,
): Parsed<Options> | { exit: number } {
  let parsed: Parsed<Options>;
  try {
    parsed = parseArgs({ args: argv, strict: true, allowPositionals, options: { ...options, ...HELP } });
  } catch (error) {
    return { exit: usageError(command, usage, errorMessage(error)) };
  }
  if ('help' in parsed.values && parsed.values.help === true) {
    process.stdout.write(usage);
    return { exit: 0 };
  }
  return parsed;
}

/** Prints `askaway <command>: <message>` and the usage; the exit code of a usage error. */
export function usageError(command: string, usage: string, message: string): number {
  process.stderr.write(`askaway ${command}: ${message}\n\n${usage}`);
  return 2;
}
