// `askaway copilot [copilot's arguments]` (R18.30): the person's own Copilot in this terminal, as a child with
// the terminal inherited, plus the bridge on the port it opens. Copilot behaves as without Askaway whatever
// the hub does; this process exits with Copilot's exit code.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { constants } from 'node:os';
import { runtimeClientProvider, type RuntimeClientProvider } from '../../runtime-client-provider';
import { createCopilotBridge, type CopilotBridge } from './bridge';
import { copilotArgs, findCopilot, freeLoopbackPort } from './install';
import { copilotPeerCheck } from './peer-process';

type Env = Record<string, string | undefined>;

/** Signals passed on to Copilot. SIGINT is not: the terminal's Ctrl+C reaches Copilot itself. */
export const FORWARDED_SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;

export interface LaunchOptions {
  args: readonly string[];
  env: Env;
  cwd: string;
  /** Where Askaway's own lines go before Copilot starts (its errors): the terminal's stderr. */
  stderr: (text: string) => void;
  /** Tests: the runtime connection (default: this machine's hub, hub.json on a joined machine). */
  runtime?: RuntimeClientProvider;
  /** Tests: called once the bridge is made. */
  onBridge?: (bridge: CopilotBridge, port: number) => void;
}

/** The bridge's log: to ASKAWAY_COPILOT_LOG when set, else nowhere (the TUI owns the terminal). */
export function bridgeLog(env: Env): (line: string) => void {
  const file = env.ASKAWAY_COPILOT_LOG?.trim();
  if (!file) return () => undefined;
  return (line) => {
    try {
      appendFileSync(file, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // A log that cannot be written must not disturb Copilot.
    }
  };
}

/** `-C <dir>` moves Copilot's working directory: the cards say that one. */
export function copilotCwd(args: readonly string[], cwd: string): string {
  const at = args.indexOf('-C');
  const dir = at >= 0 ? args[at + 1] : undefined;
  return dir ? path.resolve(cwd, dir) : cwd;
}

export async function launchCopilot(options: LaunchOptions): Promise<number> {
  const binary = findCopilot(options.env);
  if (!binary) {
    options.stderr(
      'askaway copilot: no `copilot` on PATH (install it with `npm install -g @github/copilot`, or set COPILOT_BIN)\n',
    );
    return 127;
  }
  const port = await freeLoopbackPort();
  const withServer = copilotArgs(options.args, port);
  const child = spawn(binary, withServer ?? [...options.args], {
    stdio: 'inherit',
    env: options.env as NodeJS.ProcessEnv,
    cwd: options.cwd,
  });
  const forward = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const ignoreInterrupt = () => undefined;
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  process.on('SIGINT', ignoreInterrupt);
  let bridge: CopilotBridge | undefined;
  if (withServer) {
    bridge = createCopilotBridge({
      runtime: options.runtime ?? runtimeClientProvider({ env: options.env }),
      port,
      cwd: copilotCwd(options.args, options.cwd),
      log: bridgeLog(options.env),
      // The port was free a moment ago; only this child's own socket on it is Copilot (R12.22).
      verifyPeer:
        child.pid === undefined
          ? () => Promise.resolve(`Copilot did not start, so nothing on port ${port} is it`)
          : copilotPeerCheck(child.pid, port),
    });
    options.onBridge?.(bridge, port);
  }
  const code = await new Promise<number>((resolve) => {
    child.once('error', (error) => {
      options.stderr(`askaway copilot: could not start ${binary}: ${error.message}\n`);
      resolve(127);
    });
    child.once('exit', (exitCode, signal) => {
      const number = signal ? (constants.signals as Record<string, number>)[signal] : undefined;
      resolve(exitCode ?? (number !== undefined ? 128 + number : 1));
    });
  });
  for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
  process.off('SIGINT', ignoreInterrupt);
  await bridge?.close();
  return code;
}
