// Preloaded into the host child (`node --import`): answers usage queries over the IPC
// channel, so the benchmark reads the host's own process.cpuUsage() and memory, and
// starts and stops a CPU profile of the child over the window it measures.
import { startCpuProfile, type RunningProfile } from './cpu-profiler';

export interface UsageReport {
  type: 'usage';
  id: number;
  cpuMicros: number;
  rssBytes: number;
  heapUsedBytes: number;
  at: number;
}

/** `start`, then `stop` with the file to write; the reply carries the same id (and an error, if any). */
export interface ProfileCommand {
  type: 'profile';
  id: number;
  action: 'start' | 'stop';
  file?: string;
}

export interface ProfileReply {
  type: 'profile';
  id: number;
  error?: string;
}

let profile: RunningProfile | undefined;

async function runProfileCommand(command: ProfileCommand): Promise<void> {
  if (command.action === 'start') {
    if (profile) throw new Error('a profile is already running');
    profile = await startCpuProfile();
    return;
  }
  if (!profile || !command.file) throw new Error('stop needs a running profile and a file');
  const running = profile;
  profile = undefined;
  await running.stop(command.file);
}

if (typeof process.send === 'function') {
  process.on('message', (message: unknown) => {
    if (typeof message !== 'object' || message === null) return;
    const type = (message as { type?: unknown }).type;
    if (type === 'profile') {
      const command = message as ProfileCommand;
      runProfileCommand(command).then(
        () => process.send?.({ type: 'profile', id: command.id } satisfies ProfileReply),
        (error: unknown) =>
          process.send?.({ type: 'profile', id: command.id, error: String(error) } satisfies ProfileReply),
      );
      return;
    }
    if (type !== 'usage') return;
    const cpu = process.cpuUsage();
    const memory = process.memoryUsage();
    const report: UsageReport = {
      type: 'usage',
      id: Number((message as { id?: unknown }).id),
      cpuMicros: cpu.user + cpu.system,
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      at: performance.now(),
    };
    process.send?.(report);
  });
  // The channel must not keep a host alive that would otherwise exit.
  process.channel?.unref();
}
