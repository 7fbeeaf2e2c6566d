// `askaway acp -- <agent …>` on stdio: the editor on our stdin/stdout, the agent as our child on its own. Log
// lines go to stderr (editors show or keep an agent's stderr) or to ASKAWAY_ACP_LOG; stdout carries only what
// the agent said, and the proxy's own closing messages to the editor.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { errorMessage, terminalSafe } from '../../../contracts';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { createAcpProxy } from './proxy';

export interface RunAcpProxyOptions {
  agent: readonly string[];
  name?: string;
  env?: Record<string, string | undefined>;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
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
  const proxy = createAcpProxy({
    runtime: runtimeClientProvider({ env }),
    toEditor: (line) => stdout.write(`${line}\n`),
    toAgent: (line) => {
      if (child.stdin.writable) child.stdin.write(`${line}\n`);
    },
    log,
    command,
    ...(options.name ? { name: options.name } : {}),
  });
  child.stdin.on('error', () => undefined);
  // No line length limit here: the relay must pass whatever either side sends; the proxy only looks at lines it can.
  const fromEditor = createInterface({ input: stdin, crlfDelay: Infinity });
  fromEditor.on('line', (line) => proxy.fromEditor(line));
  fromEditor.once('close', () => child.stdin.end());
  const fromAgent = createInterface({ input: child.stdout, crlfDelay: Infinity });
  fromAgent.on('line', (line) => proxy.fromAgent(line));
  const agentDone = new Promise<void>((resolve) => fromAgent.once('close', () => resolve()));
  const onAbort = () => child.kill('SIGTERM');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const code = await exited;
  options.signal?.removeEventListener('abort', onAbort);
  // What the agent wrote before it exited reaches the editor before the proxy lets go.
  await agentDone;
  fromEditor.close();
  await proxy.close();
  return code;
}

function signalNumber(signal: NodeJS.Signals): number | undefined {
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return numbers[signal];
}
