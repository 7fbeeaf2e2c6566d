import { askCommandMain } from '../../lib/runtime/ask/ask-command';
import { type CliCommand } from './types';

export const askCommand: CliCommand = {
  name: 'ask',
  summary: 'Ask one question on your phone from a script and print the answer',
  async run(argv) {
    const stop = new AbortController();
    const onSignal = () => stop.abort(new Error('interrupted'));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      return await askCommandMain(argv, {
        env: process.env,
        cwd: process.cwd(),
        signal: stop.signal,
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};
