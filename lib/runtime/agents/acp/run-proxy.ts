// `askaway acp -- <agent …>` on stdio: the editor on our stdin/stdout, the agent as our child on its own. Log
// lines go to stderr (editors show or keep an agent's stderr) or to ASKAWAY_ACP_LOG; stdout carries only what
// the agent said, and the proxy's own closing messages to the editor.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { type Readable, type Writable } from 'node:stream';
import { errorMessage, terminalSafe } from '../../../contracts';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { lineWriter, relayLines } from './line-relay';
import { ACP_LINE_READ_MAX, createAcpProxy } from './proxy';

export interface RunAcpProxyOptions {
  agent: readonly string[];
  name?: string;
  env?: Record<string, string | undefined>;
  stdin?: Readable;
  stdout?: Writable;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

function logger(env: Record<string, string | undefined>): (line: string) => void {
  const file = env.ASKAWAY_ACP_LOG;
  return (line) => {
    const safe = `${terminalSafe(line)}\n`;
    if (!file) {
      process.stderr.write(safe);
      return;
    }
    try {
      appendFileSync(file, safe, { mode: 0o600 });
    } catch {
      // A log that cannot be written must not stop the editor's session.
    }
  };
}

/** Runs the agent behind the proxy until it exits; resolves with its exit code (a signal's as the shell says). */
export async function runAcpProxy(options: RunAcpProxyOptions): Promise<number> {
  const env = options.env ?? process.env;
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = options.log ?? logger(env);
  const [command, ...args] = options.agent;
  if (!command) throw new Error('no agent command to run');
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'], env: { ...env } as NodeJS.ProcessEnv });
  const exited = new Promise<number>((resolve) => {
    child.once('error', (error) => {
      log(`askaway acp: could not start ${command}: ${errorMessage(error)}`);
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + (signalNumber(signal) ?? 15) : 1)));
  });
  // Both sides are relayed as bytes (R12.21): each side's writer holds the proxy's own messages while an
  // over-long line is half written, and each reader pauses while the other side has not drained.
  const toEditor = lineWriter(stdout);
  const toAgent = lineWriter(child.stdin);
  // An editor that closed its end, or an agent that exited, must not stop the proxy with an unhandled 'error'.
  stdout.on('error', () => undefined);
  child.stdin.on('error', () => undefined);
  const proxy = createAcpProxy({
    runtime: runtimeClientProvider({ env }),
    toEditor: (line) => toEditor.message(line),
    toAgent: (line) => toAgent.message(line),
    log,
    command,
    ...(options.name ? { name: options.name } : {}),
  });
  const overLong = (side: string) => {
    let said = false;
    return () => {
      if (!said) log(`askaway: a line over ${ACP_LINE_READ_MAX} bytes from the ${side} is relayed unread`);
      said = true;
    };
  };
  const editorDone = relayLines({
    source: stdin,
    to: toAgent,
    readMax: ACP_LINE_READ_MAX,
    onLine: (line) => proxy.fromEditor(line),
    onOverLong: overLong('editor'),
  });
  void editorDone.then(() => child.stdin.end());
  const agentDone = relayLines({
    source: child.stdout,
    to: toEditor,
    readMax: ACP_LINE_READ_MAX,
    onLine: (line) => proxy.fromAgent(line),
    onOverLong: overLong('agent'),
  });
  const onAbort = () => child.kill('SIGTERM');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const code = await exited;
  options.signal?.removeEventListener('abort', onAbort);
  // What the agent wrote before it exited reaches the editor before the proxy lets go.
  await agentDone;
  stdin.pause();
  await proxy.close();
  return code;
}

function signalNumber(signal: NodeJS.Signals): number | undefined {
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return numbers[signal];
}
