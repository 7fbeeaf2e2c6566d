import { runtimeClientProvider } from '../runtime-client-provider';
import { ASK_USAGE, AskUsageError, parseAskArgs, type AskArgs } from './ask-args';
import { ASK_EXIT, runAsk } from './run-ask';

/** What `askaway ask` reads and writes: the process's in the CLI, a test's own in unit tests. */
export interface AskCommandIo {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Aborted on SIGINT/SIGTERM: the question is withdrawn and the exit code is 130. */
  signal?: AbortSignal;
}

/** `askaway ask <argv>`: parses the flags, asks through the host, prints the outcome; resolves with the exit code (R11.3). */
export async function askCommandMain(argv: readonly string[], io: AskCommandIo): Promise<number> {
  let args: AskArgs | 'help';
  try {
    args = parseAskArgs(argv);
  } catch (error) {
    if (!(error instanceof AskUsageError)) throw error;
    io.stderr(`askaway ask: ${error.message}\n\n${ASK_USAGE}`);
    return ASK_EXIT.badArguments;
  }
  if (args === 'help') {
    io.stdout(ASK_USAGE);
    return 0;
  }
  const runtime = runtimeClientProvider({ env: io.env });
  try {
    return await runAsk(args, {
      runtime,
      cwd: io.cwd,
      signal: io.signal,
      write: io.stdout,
      warn: (text) => io.stderr(`askaway ask: ${text}`),
    });
  } finally {
    await runtime.close();
  }
}
