// `askaway opencode bridge` on stdio: the plugin's JSON lines in, the bridge's out (R18.21). Nothing else is
// written to stdout; log lines go to stderr, which the plugin sends to OpenCode's log.
import { type Readable } from 'node:stream';
import { BRIDGE_FRAME_MAX_BYTES } from '../../../contracts';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { parsePluginLine } from './bridge-messages';
import { createOpenCodeBridge } from './bridge';
import { readBoundedLines } from './plugin-lines';

export interface BridgeStdioOptions {
  env?: Record<string, string | undefined>;
  stdin?: Readable;
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
  // A plugin gone mid-write (OpenCode killed) is no reason to stop before the cards are withdrawn.
  stdout.on('error', () => undefined);
  const bridge = createOpenCodeBridge({
    runtime: runtimeClientProvider({ env: options.env }),
    send: (message) => stdout.write(`${JSON.stringify(message)}\n`),
    log,
  });
  // Said once per run of refused lines, not once per line: a flood of them is one log line (R12.18).
  let lastRefusal = '';
  const refuse = (why: string, head = '') => {
    if (why !== lastRefusal) log(`askaway: not a plugin message (${why}), dropped; more like it are not said${head}`);
    lastRefusal = why;
  };
  const lines = readBoundedLines({
    input: stdin,
    // A line is held up to this, whole lines only (R12.19); a longer one is dropped as it streams in.
    maxBytes: BRIDGE_FRAME_MAX_BYTES,
    onLine: (line) => {
      if (line.trim() === '') return;
      const parsed = parsePluginLine(line);
      if ('problem' in parsed) return refuse(parsed.problem, `: ${line.slice(0, 200)}`);
      lastRefusal = '';
      bridge.receive(parsed.message);
    },
    onOverLong: () => refuse(`a line longer than ${BRIDGE_FRAME_MAX_BYTES} bytes`),
  });
  await new Promise<void>((resolve) => {
    void lines.then(resolve);
    options.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await bridge.close();
}
