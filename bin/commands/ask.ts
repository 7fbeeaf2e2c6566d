import { ASK_USAGE, AskUsageError, parseAskArgs, type AskArgs } from '../../lib/runtime/ask/ask-args';
import { ASK_EXIT, runAsk } from '../../lib/runtime/ask/run-ask';
import { runtimeClientProvider } from '../../lib/runtime/runtime-client-provider';
import { type CliCommand } from './types';

export const askCommand: CliCommand = {
  name: 'ask',
  summary: 'Ask one question on your phone from a script and print the answer',
  async run(argv) {
    let args: AskArgs | 'help';
    try {
      args = parseAskArgs(argv);
    } catch (error) {
      if (!(error instanceof AskUsageError)) throw error;
      process.stderr.write(`askaway ask: ${error.message}\n\n${ASK_USAGE}`);
      return ASK_EXIT.badArguments;
    }
    if (args === 'help') {
      process.stdout.write(ASK_USAGE);
      return 0;
    }
    const stop = new AbortController();
    const onSignal = () => stop.abort(new Error('interrupted'));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const runtime = runtimeClientProvider();
    try {
      return await runAsk(args, {
        runtime,
        cwd: process.cwd(),
        signal: stop.signal,
        write: (text) => process.stdout.write(text),
        warn: (text) => process.stderr.write(`askaway ask: ${text}`),
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await runtime.close();
    }
  },
};
