// `askaway opencode bridge` on stdio: the plugin's JSON lines in, the bridge's out (R18.21). Nothing else is
// written to stdout; log lines go to stderr, which the plugin sends to OpenCode's log.
import { createInterface } from 'node:readline';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { parsePluginLine } from './bridge-messages';
import { createOpenCodeBridge } from './bridge';

export interface BridgeStdioOptions {
  env?: Record<string, string | undefined>;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  log?: (line: string) => void;
  /** Ends the bridge early, e.g. on SIGTERM. */
  signal?: AbortSignal;
}

/** Runs until the plugin closes stdin (OpenCode exited) or `signal` aborts; open cards are withdrawn first. */
export async function runOpenCodeBridge(options: BridgeStdioOptions = {}): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const bridge = createOpenCodeBridge({
    runtime: runtimeClientProvider({ env: options.env }),
    send: (message) => stdout.write(`${JSON.stringify(message)}\n`),
    log,
  });
  const lines = createInterface({ input: stdin });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    const parsed = parsePluginLine(line);
    if ('problem' in parsed) log(`askaway: not a plugin message (${parsed.problem}): ${line.slice(0, 200)}`);
    else bridge.receive(parsed.message);
  });
  await new Promise<void>((resolve) => {
    lines.once('close', () => resolve());
    options.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  lines.close();
  await bridge.close();
}
