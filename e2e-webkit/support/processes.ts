import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/** A child process of the suite whose output is kept for error messages and which dies with the suite. */
export interface Child {
  readonly process: ChildProcess;
  /** Settles when the process has exited, or could not start at all. */
  readonly exited: Promise<void>;
  output(): string;
  /** SIGTERM, then SIGKILL if it is still there after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

const alive = new Set<ChildProcess>();
let exitHooked = false;

/** A crashed or interrupted test worker must not leave an X server or a browser behind. */
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const child of alive) child.kill('SIGKILL');
  });
}

export function spawnChild(command: string, args: string[], options: SpawnOptions = {}): Child {
  hookExit();
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  alive.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    // The tail is what explains a failure; a chatty browser must not grow this without bound.
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (error) => {
      output += `\n${error.message}`;
      resolve();
    });
  }).then(() => {
    alive.delete(child);
  });
  const running = () => child.exitCode === null && child.signalCode === null && child.pid !== undefined;
  return {
    process: child,
    exited,
    output: () => output,
    async stop(graceMs = 3_000) {
      if (!running()) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** `ready`, unless the child exits first: then an error that carries its output. */
export function unlessExited<T>(child: Child, what: string, ready: Promise<T>): Promise<T> {
  const died = child.exited.then(() => {
    const status = child.process.exitCode ?? child.process.signalCode ?? 'did not start';
    throw new Error(`${what} exited (${status}):\n${child.output()}`);
  });
  return Promise.race([ready, died]);
}
